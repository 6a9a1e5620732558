// A text with some of its own words shown as a link: the quote consent's "the opt-out page", the opt-out page's
// "privacy policy". The words stay exactly as written (the consent is stored as plain text, word for word as shown);
// crates/content checks that the text holds them, once. Rendered inside islands too, so it takes everything as props.
import { TextLink } from './TextLink';

export function LinkedWords({ text, words, href }: { text: string; words: string; href: string }) {
  const at = words ? text.indexOf(words) : -1;
  // The build refuses content without the words; should they still be missing, the text is shown whole, unlinked.
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <TextLink href={href}>{words}</TextLink>
      {text.slice(at + words.length)}
    </>
  );
}
