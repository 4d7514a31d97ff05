import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { bearerToken, describeKey, generateApiKey, hashApiKey } from "../../src/accounts/api-keys.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

test("a key's hash is its SHA-256, whether hashed afresh or remembered", () => {
  const secret = generateApiKey().secret;
  assert.equal(hashApiKey(secret), sha256(secret));
  assert.equal(hashApiKey(secret), sha256(secret));
  assert.equal(describeKey(secret).hash, sha256(secret));
});

test("more keys than the remembered hashes hold still hash right", () => {
  const secrets = Array.from({ length: 12_000 }, (_, i) => `sk_guess_${i}`);
  for (const secret of secrets) hashApiKey(secret);
  for (const secret of [secrets[0]!, secrets[9_999]!, secrets[11_999]!])
    assert.equal(hashApiKey(secret), sha256(secret));
});

test("new keys are sk_ and 32 base64url characters, read from a Bearer header", () => {
  const { secret, displayPrefix } = generateApiKey();
  assert.match(secret, /^sk_[A-Za-z0-9_-]{32}$/);
  assert.ok(secret.startsWith(displayPrefix));
  assert.equal(bearerToken(`Bearer ${secret}`), secret);
  assert.equal(bearerToken(`Basic ${secret}`), null);
});
