// The English build's t() for pages: the text as written in the component, with its {placeholders} filled in.
import { fill, type Values } from '../fill';

export const t = (text: string, values?: Values): string => fill(text, values);

/** The texts asked for without a translation: none, in the language they are written in. */
export const missingTexts = (): string[] => [];
