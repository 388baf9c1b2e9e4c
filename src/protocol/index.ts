// Public library surface of embed-inspector (package `exports`).
export * from './record.ts';
export * from './encoding.ts';
export * from './classify.ts';
