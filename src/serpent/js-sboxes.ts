/**
 * The S-box circuits of sboxes.ts as JavaScript functions on the four words
 * r[0..3], for the pure-JS tier. Written by scripts/serpent-sboxes.ts --js
 * from sboxes.ts; test/serpent/sboxes.test.ts checks both against the tables.
 */

export function s0(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = x0 | x3, t1 = x1 ^ t0, t2 = x2 ^ t1, t3 = x0 | t2, t4 = x0 & x2, t5 = ~t1;
  const t6 = x0 ^ t3, t7 = x0 ^ x3, t8 = t1 & ~t7, t9 = t5 & ~x3, t10 = t4 ^ t9, t11 = x2 | t8;
  const t12 = t10 ^ t11, t13 = ~t6, t14 = t7 ^ t11, t15 = t13 ^ t14, t16 = t12 | t15, t17 = t5 ^ t16;
  r[0] = t12; r[1] = t15; r[2] = t17; r[3] = t2;
}

export function s1(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = x0 ^ x2, t1 = ~t0, t2 = x3 ^ t1, t3 = x0 | x1, t4 = t2 ^ t3, t5 = x1 & ~x3;
  const t6 = x1 ^ x3, t7 = t4 & ~x2, t8 = t2 | t7, t9 = x0 & ~t6, t10 = t8 & ~t9, t11 = t5 | t9;
  const t12 = x2 ^ t11, t13 = t10 ^ t12, t14 = x1 | t9, t15 = t1 | t13, t16 = t14 ^ t15;
  r[0] = t16; r[1] = t10; r[2] = t4; r[3] = t13;
}

export function s2(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = x2 & ~x0, t1 = x1 ^ t0, t2 = x3 ^ t1, t3 = x0 & x3, t4 = x2 ^ t2, t5 = ~x0;
  const t6 = t2 ^ t5, t7 = t4 & ~x1, t8 = t6 ^ t7, t9 = t1 & ~t4, t10 = ~t9, t11 = t3 | t6;
  const t12 = t10 ^ t11, t13 = t3 ^ t7, t14 = t0 ^ t12, t15 = t13 ^ t14;
  r[0] = t2; r[1] = t15; r[2] = t12; r[3] = t8;
}

export function s3(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = x0 | x2, t1 = x1 ^ t0, t2 = x0 & ~x2, t3 = x3 ^ t2, t4 = x0 & x3, t5 = t0 & ~t3;
  const t6 = t1 | t4, t7 = t5 ^ t6, t8 = x0 ^ t7, t9 = t1 | t3, t10 = t8 ^ t9, t11 = x1 & x3;
  const t12 = t4 ^ t11, t13 = t9 ^ t12, t14 = x1 ^ t3, t15 = x2 ^ t11, t16 = t8 & t15, t17 = t12 | t14;
  const t18 = t16 ^ t17;
  r[0] = t18; r[1] = t7; r[2] = t10; r[3] = t13;
}

export function s4(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = x1 ^ x3, t1 = x2 | t0, t2 = x1 ^ x2, t3 = x0 | t0, t4 = t1 & ~x3, t5 = x0 ^ x1;
  const t6 = t0 & ~t5, t7 = t2 ^ t6, t8 = ~t7, t9 = t7 & ~x1, t10 = x0 ^ t9, t11 = t0 ^ t10;
  const t12 = x2 & t10, t13 = t5 & ~t4, t14 = t12 | t13, t15 = x3 ^ t3, t16 = t7 & ~t12, t17 = t15 ^ t16;
  r[0] = t8; r[1] = t17; r[2] = t14; r[3] = t11;
}

export function s5(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = x1 & ~x3, t1 = ~x1, t2 = x0 ^ t1, t3 = x2 | x3, t4 = t0 | t2, t5 = t3 ^ t4;
  const t6 = t2 & ~x3, t7 = x0 & ~x1, t8 = x2 ^ t7, t9 = t6 ^ t8, t10 = x1 ^ t8, t11 = t9 & t10;
  const t12 = x3 ^ t2, t13 = t11 ^ t12, t14 = x0 ^ t8, t15 = t12 & ~t11, t16 = t14 ^ t15;
  r[0] = t9; r[1] = t5; r[2] = t13; r[3] = t16;
}

export function s6(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = ~x1, t1 = x0 & x3, t2 = x2 ^ t1, t3 = t0 ^ t2, t4 = x1 & t2, t5 = x0 ^ t3;
  const t6 = x1 | t3, t7 = t5 & t6, t8 = x3 | t4, t9 = t7 ^ t8, t10 = t3 & t9, t11 = x1 ^ t7;
  const t12 = x3 ^ t11, t13 = t5 ^ t10, t14 = t12 ^ t13, t15 = t14 & ~t9, t16 = t2 ^ t15;
  r[0] = t9; r[1] = t3; r[2] = t14; r[3] = t16;
}

export function s7(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = x2 ^ x3, t1 = x1 & x2, t2 = x0 ^ x3, t3 = t0 | t1, t4 = x3 & ~x1, t5 = t1 ^ t2;
  const t6 = x0 | x2, t7 = x1 ^ t6, t8 = x0 & ~t5, t9 = t7 ^ t8, t10 = t2 & ~t7, t11 = ~t10;
  const t12 = t3 ^ t11, t13 = t0 | t2, t14 = x2 & ~t10, t15 = x1 ^ t14, t16 = x0 | t4, t17 = t15 ^ t16;
  const t18 = t5 ^ t15, t19 = t0 ^ t13, t20 = t18 & ~t19;
  r[0] = t12; r[1] = t20; r[2] = t17; r[3] = t9;
}

export function si0(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = x3 & ~x1, t1 = x0 ^ x1, t2 = ~x0, t3 = x2 ^ x3, t4 = t2 & ~x1, t5 = t3 ^ t4;
  const t6 = t2 & ~x3, t7 = t5 & ~t6, t8 = t7 & ~t0, t9 = x2 ^ t8, t10 = t1 ^ t9, t11 = t0 | t2;
  const t12 = t3 & ~t10, t13 = t11 ^ t12, t14 = x2 ^ t0, t15 = t10 | t13, t16 = t14 ^ t15;
  r[0] = t16; r[1] = t10; r[2] = t5; r[3] = t13;
}

export function si1(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = x3 & ~x1, t1 = x0 ^ t0, t2 = x2 ^ t1, t3 = x3 ^ t2, t4 = x1 ^ x3, t5 = t1 & t4;
  const t6 = ~x0, t7 = x2 & ~t5, t8 = x1 ^ t7, t9 = x3 & t2, t10 = t8 ^ t9, t11 = ~t3;
  const t12 = t5 ^ t10, t13 = t11 ^ t12, t14 = t10 & ~t13, t15 = t6 ^ t14, t16 = t0 ^ t15;
  r[0] = t13; r[1] = t10; r[2] = t16; r[3] = t2;
}

export function si2(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = x1 & x2, t1 = x1 ^ x2, t2 = x2 | x3, t3 = x3 & ~t1, t4 = x1 ^ t3, t5 = x0 ^ t2;
  const t6 = t0 ^ t5, t7 = t4 ^ t6, t8 = x3 ^ t1, t9 = t4 & t6, t10 = t8 ^ t9, t11 = t4 ^ t10;
  const t12 = x0 ^ t11, t13 = ~t12, t14 = t13 & ~t6, t15 = t12 & ~t4, t16 = t14 | t15;
  r[0] = t7; r[1] = t10; r[2] = t13; r[3] = t16;
}

export function si3(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = x1 & ~x2, t1 = x0 & ~t0, t2 = x3 ^ t0, t3 = x0 ^ t2, t4 = x1 ^ x2, t5 = x3 | t3;
  const t6 = t4 ^ t5, t7 = t4 | t5, t8 = x2 ^ t3, t9 = t7 ^ t8, t10 = t6 | t8, t11 = t1 ^ t10;
  const t12 = x3 | t1, t13 = t9 ^ t12, t14 = x1 | t11, t15 = t13 ^ t14;
  r[0] = t6; r[1] = t11; r[2] = t9; r[3] = t15;
}

export function si4(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = x2 ^ x3, t1 = x0 & x1, t2 = x2 | x3, t3 = t0 ^ t1, t4 = x0 & t2, t5 = t3 ^ t4;
  const t6 = x1 ^ t4, t7 = t5 & ~x3, t8 = t6 ^ t7, t9 = x2 & ~t8, t10 = x0 ^ x3, t11 = t5 | t10;
  const t12 = ~t11, t13 = t6 ^ t12, t14 = t4 | t9, t15 = t13 & ~t5, t16 = t14 ^ t15;
  r[0] = t13; r[1] = t5; r[2] = t16; r[3] = t8;
}

export function si5(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = x1 ^ x2, t1 = x1 & ~x2, t2 = x0 & x3, t3 = t0 ^ t2, t4 = x0 ^ x3, t5 = x1 & ~t3;
  const t6 = t4 ^ t5, t7 = ~t3, t8 = x0 & t1, t9 = t7 ^ t8, t10 = x0 & ~t9, t11 = x1 ^ t6;
  const t12 = t10 ^ t11, t13 = t6 | t12, t14 = x3 ^ t13, t15 = t3 ^ t14;
  r[0] = t6; r[1] = t12; r[2] = t15; r[3] = t9;
}

export function si6(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = x0 ^ x3, t1 = x1 ^ t0, t2 = ~t1, t3 = x0 | x2, t4 = t2 ^ t3, t5 = t3 & ~x3;
  const t6 = x2 ^ t5, t7 = x0 & t6, t8 = t2 & ~t5, t9 = t7 | t8, t10 = t5 | t9, t11 = x1 ^ t7;
  const t12 = t10 ^ t11, t13 = t0 ^ t3, t14 = t9 & ~t11, t15 = t13 ^ t14;
  r[0] = t12; r[1] = t4; r[2] = t15; r[3] = t9;
}

export function si7(r: Int32Array): void {
  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  const t0 = ~x1, t1 = x0 & x3, t2 = x3 ^ t0, t3 = x1 ^ t1, t4 = x2 | x3, t5 = t4 & ~t3;
  const t6 = x2 ^ t2, t7 = t1 | t5, t8 = x0 ^ t6, t9 = t7 ^ t8, t10 = t1 | t9, t11 = t4 ^ t10;
  const t12 = x1 ^ t11, t13 = t4 & ~t9, t14 = x3 ^ t13, t15 = t3 ^ t14, t16 = t8 & ~t15, t17 = t10 ^ t14;
  const t18 = t16 ^ t17;
  r[0] = t9; r[1] = t12; r[2] = t15; r[3] = t18;
}

/** S0..S7, then their inverses. */
export const SBOX_FUNCTIONS = [s0, s1, s2, s3, s4, s5, s6, s7];
export const INVERSE_FUNCTIONS = [si0, si1, si2, si3, si4, si5, si6, si7];
