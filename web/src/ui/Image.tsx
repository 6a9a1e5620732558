// Images from content/images, hashed by Vite. Always with width and height (no layout shift) and lazy below the fold.
const urls = import.meta.glob<string>('../../../content/images/**/*.svg', { eager: true, query: '?url', import: 'default' });

export function imageUrl(path: string): string {
  const url = urls[`../../../content/images/${path}`];
  if (!url) throw new Error(`content/images/${path} does not exist`);
  return url;
}

export function Image({
  path,
  alt,
  width,
  height,
  className = '',
  eager = false,
}: {
  path: string;
  alt: string;
  width: number;
  height: number;
  className?: string;
  eager?: boolean;
}) {
  return (
    <img
      src={imageUrl(path)}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      className={`fade-in-image ${className}`}
    />
  );
}
