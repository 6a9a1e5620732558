// A list whose every item starts with the same icon: a checklist, the banner's benefit badges, a product's highlights,
// types and features. Its look is the caller's: the list's classes, each item's and the icon's.
import { Icon, type IconName } from './Icon';

export function IconList({
  items,
  icon,
  className,
  itemClassName,
  iconClassName,
}: {
  items: readonly string[];
  icon: IconName;
  className: string;
  itemClassName: string;
  iconClassName: string;
}) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item} className={itemClassName}>
          <Icon name={icon} className={iconClassName} />
          {item}
        </li>
      ))}
    </ul>
  );
}
