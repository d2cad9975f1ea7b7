// The Lua scripts of the Redis hit cache (docs/caches.md, "Redis"). Redis runs a script atomically: no other
// command runs between its steps, so a claim is decided once for the whole fleet. Every script reads the
// clock of Redis (`TIME`), never a process's, so leases mean the same on every host whatever its clock says.
//
// Keys, in this order in every script: KEYS[1] the records (hash: hid → JSON), KEYS[2] the claims (hash:
// hid → owner token), KEYS[3] the owners (hash: owner token → end of its lease, epoch ms on Redis's clock).
// The owners hash expires when the newest lease in it ends (each write sets it): by then every lease has.

/** Redis's clock in epoch milliseconds, as a Lua local `now`. */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** Renews an owner's lease. ARGV: owner token, lease (ms). */
export const RENEW_SCRIPT = `${NOW}
redis.call('HSET', KEYS[3], ARGV[1], now + tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[3], ARGV[2])
return 1`;

/**
 * Stores records and claims them for their writer (the tracker that wrote them holds them in its pool).
 * ARGV: owner token, lease (ms), time to live of the hashes (ms), then hid, JSON, hid, JSON, …
 *
 * The hashes expire that long after the last write: by then every record in them is older than the 4-hour
 * limit of PROTOCOL.md §11 (a record's creation is never later than its write), which no tracker sends.
 */
export const CACHE_SCRIPT = `${NOW}
redis.call('HSET', KEYS[3], ARGV[1], now + tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[3], ARGV[2])
for i = 4, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`;

/**
 * Hands out the records this process may send. ARGV: owner token (its lease is renewed), lease (ms), `1` to
 * claim the records nobody alive holds (the tracker's first lookup, which pools them) or `0` to leave them
 * unclaimed (a later lookup: the tracker only checks what the cache still holds).
 * Returns hid, JSON, hid, JSON, … of this process's records and of those nobody alive holds.
 */
export const LOOKUP_SCRIPT = `${NOW}
local lease = tonumber(ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], now + lease)
redis.call('PEXPIRE', KEYS[3], lease)
local alive = {}
local owners = redis.call('HGETALL', KEYS[3])
for i = 1, #owners, 2 do
  if tonumber(owners[i + 1]) > now then alive[owners[i]] = true
  else redis.call('HDEL', KEYS[3], owners[i]) end
end
local out = {}
local records = redis.call('HGETALL', KEYS[1])
for i = 1, #records, 2 do
  local hid = records[i]
  local owner = redis.call('HGET', KEYS[2], hid)
  if owner == ARGV[1] or not (owner and alive[owner]) then
    if owner ~= ARGV[1] and ARGV[3] == '1' then redis.call('HSET', KEYS[2], hid, ARGV[1]) end
    out[#out + 1] = hid
    out[#out + 1] = records[i + 1]
  end
end
return out`;

/** Erases records and their claims, whoever holds them. ARGV: the hids. */
export const FLUSH_SCRIPT = `for i = 1, #ARGV do
  redis.call('HDEL', KEYS[1], ARGV[i])
  redis.call('HDEL', KEYS[2], ARGV[i])
end
return 1`;

/** Ends an owner's lease at once (its process stops cleanly). ARGV: owner token. */
export const RELEASE_SCRIPT = `redis.call('HDEL', KEYS[3], ARGV[1])
return 1`;
