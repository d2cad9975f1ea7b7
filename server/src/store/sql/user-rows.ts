// A users row as the store answers it, shared by the user and link queries.
import type { UserRecord } from '../user-store.js';
import { num, numOrNull, text, textOrNull, type Row } from './sql.js';

/** Maps a `users` row. */
export const toUser = (row: Row): UserRecord => ({
  id: text(row, 'id'),
  email: text(row, 'email'),
  name: text(row, 'name'),
  passwordHash: textOrNull(row, 'password_hash'),
  createdMs: num(row, 'created_ms'),
  lastSignInMs: numOrNull(row, 'last_sign_in_ms'),
});
