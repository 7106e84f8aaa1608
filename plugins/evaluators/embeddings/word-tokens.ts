/**
 * Words of a text, as both local embedders read them: Unicode letters, marks and digits, lower-cased (NFC), with an
 * apostrophe, hyphen or period inside a word kept in it ("france's", "state-of-the-art", "e.g") and punctuation
 * between words dropped. Curly apostrophes become straight ones, so "France’s" and "France's" are one word.
 */
const WORD = /[\p{L}\p{M}\p{N}]+(?:['\-.][\p{L}\p{M}\p{N}]+)*/gu;
const APOSTROPHES = /[\u2018\u2019\u02bc\uff07]/g;

export function words(text: string): string[] {
  const normal = text.normalize('NFC').toLowerCase().replace(APOSTROPHES, "'");
  return normal.match(WORD) ?? [];
}

// English clitics split off the way GloVe's tokenizer did ("france's" → "france" "'s", "don't" → "do" "n't").
const CLITIC = /^(.+?)(n't|'s|'re|'ve|'ll|'d|'m)$/;
const JOINERS = /['\-.]/;
const MARKS = /\p{M}/gu;

/**
 * The vocabulary ranks a word stands for: the word itself if known; else its clitic split; else its parts between
 * apostrophes, hyphens and periods; each tried again without diacritics ("café" → "cafe"). Unknown parts are
 * dropped, so an unknown word stands for nothing.
 */
export function lookup(word: string, index: ReadonlyMap<string, number>): number[] {
  const found = lookupExact(word, index);
  if (found.length > 0) return found;
  const plain = word.normalize('NFD').replace(MARKS, '');
  return plain === word ? found : lookupExact(plain, index);
}

function lookupExact(word: string, index: ReadonlyMap<string, number>): number[] {
  const whole = index.get(word);
  if (whole !== undefined) return [whole];
  if (!JOINERS.test(word)) return [];
  const out: number[] = [];
  const clitic = CLITIC.exec(word);
  if (clitic) {
    const base = index.get(clitic[1]);
    const tail = index.get(clitic[2]);
    if (base !== undefined) {
      out.push(base);
      if (tail !== undefined) out.push(tail);
      return out;
    }
  }
  for (const part of word.split(JOINERS)) {
    const r = index.get(part);
    if (r !== undefined) out.push(r);
  }
  return out;
}
