// The relaxed-SIMD probe: a module of a few bytes that uses every relaxed instruction the
// relaxed build uses (scripts/build-relaxed.sh), so that an engine validates it only where it
// can compile that build. Checking one instruction was not enough: an engine may have relaxed
// SIMD in part. WebKitGTK 2.50 with JSC_useWasmRelaxedSIMD=true validates
// `f32x4.relaxed_madd` but refuses `f32x4.relaxed_max` ("invalid extended simd op 270"), so a
// probe of the one passed and the build then failed to compile. wasm-load.js validates the
// patched module itself too, before compiling it; tests/browser/relaxed-probe.test.mjs checks
// that RELAXED_USED is what the built module holds.

/** Every relaxed-SIMD instruction: [its opcode after the 0xfd prefix, its v128 operands]. */
const RELAXED = {
  'i8x16.relaxed_swizzle': [0x100, 2],
  'i32x4.relaxed_trunc_f32x4_s': [0x101, 1],
  'i32x4.relaxed_trunc_f32x4_u': [0x102, 1],
  'i32x4.relaxed_trunc_f64x2_s_zero': [0x103, 1],
  'i32x4.relaxed_trunc_f64x2_u_zero': [0x104, 1],
  'f32x4.relaxed_madd': [0x105, 3],
  'f32x4.relaxed_nmadd': [0x106, 3],
  'f64x2.relaxed_madd': [0x107, 3],
  'f64x2.relaxed_nmadd': [0x108, 3],
  'i8x16.relaxed_laneselect': [0x109, 3],
  'i16x8.relaxed_laneselect': [0x10a, 3],
  'i32x4.relaxed_laneselect': [0x10b, 3],
  'i64x2.relaxed_laneselect': [0x10c, 3],
  'f32x4.relaxed_min': [0x10d, 2],
  'f32x4.relaxed_max': [0x10e, 2],
  'f64x2.relaxed_min': [0x10f, 2],
  'f64x2.relaxed_max': [0x110, 2],
  'i16x8.relaxed_q15mulr_s': [0x111, 2],
  'i16x8.relaxed_dot_i8x16_i7x16_s': [0x112, 2],
  'i32x4.relaxed_dot_i8x16_i7x16_add_s': [0x113, 3],
};

/**
 * The relaxed instructions in the relaxed build, as `wasm-dis` lists them: the neighbour scan's
 * fused multiply-adds, and the min/max that LLVM makes relaxed once the feature is on.
 */
export const RELAXED_USED = ['f32x4.relaxed_madd', 'f32x4.relaxed_min', 'f32x4.relaxed_max', 'f64x2.relaxed_max'];

/** `n` as an unsigned LEB128. */
function leb(n) {
  const out = [];
  do {
    let byte = n & 127;
    n >>>= 7;
    if (n) byte |= 128;
    out.push(byte);
  } while (n);
  return out;
}

const section = (id, bytes) => [id, ...leb(bytes.length), ...bytes];
const V128_ZERO = [0xfd, 12, ...new Array(16).fill(0)]; // v128.const 0

/**
 * A module with one function `() -> ()` that applies each of `names` (RELAXED_USED by
 * default) to zero vectors and drops the result: valid only where every one of them is.
 */
export function relaxedProbe(names = RELAXED_USED) {
  const body = [0]; // no locals
  for (const name of names) {
    const known = RELAXED[name];
    if (!known) throw new Error(`relaxedProbe: no relaxed-SIMD instruction ${name}`);
    const [opcode, operands] = known;
    for (let k = 0; k < operands; k++) body.push(...V128_ZERO);
    body.push(0xfd, ...leb(opcode), 0x1a); // the instruction, drop
  }
  body.push(0x0b); // end
  return new Uint8Array([
    ...[0, 97, 115, 109, 1, 0, 0, 0], // "\0asm", version 1
    ...section(1, [1, 0x60, 0, 0]), // types: () -> ()
    ...section(3, [1, 0]), // one function of that type
    ...section(10, [1, ...leb(body.length), ...body]), // its code
  ]);
}

/** Every relaxed-SIMD instruction's name (for the test that reads them out of a module). */
export const RELAXED_NAMES = Object.keys(RELAXED);
