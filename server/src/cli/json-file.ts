// The JSON files the CLI is given (`import FILE`, `campaign create FILE`), read with errors that name the file.
// Apart from import-file.ts, whose schema takes a few hundred milliseconds to load, so that the commands that
// only read a file load none of it.
import { readFile } from 'node:fs/promises';
import { InputError } from '../errors.js';

/** Reads a JSON file; the errors say what to change. */
export const readJsonFile = async (path: string): Promise<unknown> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new InputError(`Cannot read ${path}: check the file path.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError(
      `${path} is not valid JSON (${error instanceof Error ? error.message : 'unparsable'}).`,
    );
  }
};
