/*
 * SipHash-1-3 with zero keys over a Rust `str`'s Hash input (its bytes, then 0xff): what Temporal core uses to derive
 * a workflow run's randomness seed from its run id (workflow_machines.rs str_to_randomness_seed). With it the harness
 * seeds Math.random in the workflow sandbox exactly as a real worker would, so recorded histories replay identically
 * even if workflow code draws random numbers.
 */

const MASK = (1n << 64n) - 1n;
const rotl = (x: bigint, b: bigint): bigint => ((x << b) | (x >> (64n - b))) & MASK;

export function sipHash13(data: Uint8Array): bigint {
  let v0 = 0x736f6d6570736575n;
  let v1 = 0x646f72616e646f6dn;
  let v2 = 0x6c7967656e657261n;
  let v3 = 0x7465646279746573n;
  const round = (): void => {
    v0 = (v0 + v1) & MASK;
    v1 = rotl(v1, 13n) ^ v0;
    v0 = rotl(v0, 32n);
    v2 = (v2 + v3) & MASK;
    v3 = rotl(v3, 16n) ^ v2;
    v0 = (v0 + v3) & MASK;
    v3 = rotl(v3, 21n) ^ v0;
    v2 = (v2 + v1) & MASK;
    v1 = rotl(v1, 17n) ^ v2;
    v2 = rotl(v2, 32n);
  };
  const word = (offset: number, length: number): bigint => {
    let m = 0n;
    for (let i = length - 1; i >= 0; i--) m = (m << 8n) | BigInt(data[offset + i]);
    return m;
  };
  const whole = data.length - (data.length % 8);
  for (let i = 0; i < whole; i += 8) {
    const m = word(i, 8);
    v3 ^= m;
    round();
    v0 ^= m;
  }
  const last = (BigInt(data.length & 0xff) << 56n) | word(whole, data.length - whole);
  v3 ^= last;
  round();
  v0 ^= last;
  v2 ^= 0xffn;
  round();
  round();
  round();
  return v0 ^ v1 ^ v2 ^ v3;
}

/** The seed core gives a run: SipHash-1-3 of the run id as Rust hashes a `&str`. */
export function randomnessSeedOf(runId: string): bigint {
  const bytes = new TextEncoder().encode(runId);
  const input = new Uint8Array(bytes.length + 1);
  input.set(bytes);
  input[bytes.length] = 0xff;
  return sipHash13(input);
}
