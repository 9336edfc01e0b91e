// scripts/wasm-opt/server.mjs — one resident wasm-opt for a whole release build.
//
// cargo-leptos runs `wasm-opt -Oz ... <file> -o <file>` once per wasm file, and a split
// build has about 120 of them. The only wasm-opt recent enough for today's rustc output
// that installs here is binaryen's npm build (docs/setup.md): binaryen compiled to wasm,
// which node compiles again on every start, about 2.7 s of CPU before any work. This
// process loads binaryen once and optimizes every file the build asks for; `client.mjs`,
// put first on PATH as `wasm-opt` by scripts/lib.sh's `with_resident_wasm_opt`, forwards
// each call to it over a Unix socket and returns its status.
//
//   node scripts/wasm-opt/server.mjs <socket> <binaryen module path>
//
// It takes the arguments cargo-leptos passes: one -O level (-O0..-O4, -Os, -Oz), --enable-*
// and --disable-* feature flags, the input file and `-o <output>`. Anything else is refused
// (the client then fails the build) rather than silently ignored.
import { createServer } from 'node:net';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';

const [socket, binaryenPath] = process.argv.slice(2);
const { default: binaryen } = await import(binaryenPath);
const F = binaryen.Features;

// What wasm-opt 132 starts from (its --print-features with no flag).
const DEFAULT_FEATURES =
  F.MutableGlobals | F.NontrappingFPToInt | F.BulkMemory | F.SignExt | F.ReferenceTypes |
  F.Multivalue | F.BulkMemoryOpt | F.CallIndirectOverlong;
const FEATURE_FLAGS = {
  'bulk-memory': F.BulkMemory,
  'bulk-memory-opt': F.BulkMemoryOpt,
  'nontrapping-float-to-int': F.NontrappingFPToInt,
  'sign-ext': F.SignExt,
  'mutable-globals': F.MutableGlobals,
  'reference-types': F.ReferenceTypes,
  multivalue: F.Multivalue,
  'call-indirect-overlong': F.CallIndirectOverlong,
  simd: F.SIMD128,
  'tail-call': F.TailCall,
  'exception-handling': F.ExceptionHandling,
};
const LEVELS = { '-O0': [0, 0], '-O1': [1, 0], '-O2': [2, 0], '-O3': [3, 0], '-O4': [4, 0], '-Os': [2, 1], '-Oz': [2, 2] };

function optimize(args) {
  let features = DEFAULT_FEATURES;
  let level = null;
  let input = null;
  let output = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a in LEVELS) level = LEVELS[a];
    else if (a === '-o') output = args[++i];
    else if (a.startsWith('--enable-') && a.slice(9) in FEATURE_FLAGS) features |= FEATURE_FLAGS[a.slice(9)];
    else if (a.startsWith('--disable-') && a.slice(10) in FEATURE_FLAGS) features &= ~FEATURE_FLAGS[a.slice(10)];
    else if (!a.startsWith('-') && input === null) input = a;
    else throw new Error(`unsupported argument ${a}`);
  }
  if (input === null || output === null) throw new Error('an input file and -o <output> are needed');
  const module = binaryen.readBinary(readFileSync(input));
  try {
    module.setFeatures(features);
    if (!module.validate()) throw new Error(`${input} does not validate`);
    if (level !== null) {
      binaryen.setOptimizeLevel(level[0]);
      binaryen.setShrinkLevel(level[1]);
      module.optimize();
    }
    // The command line optimizes the stack form as it writes (binaryen 117 and later) when
    // it optimizes at all; the library does only when asked.
    binaryen.setGenerateStackIR(level !== null);
    binaryen.setOptimizeStackIR(level !== null);
    writeFileSync(output, module.emitBinary());
  } finally {
    module.dispose();
  }
}

rmSync(socket, { force: true });
const server = createServer((conn) => {
  let data = '';
  conn.setEncoding('utf8');
  conn.on('data', (chunk) => {
    data += chunk;
    if (!data.endsWith('\n')) return;
    let reply;
    try {
      const { cwd, args } = JSON.parse(data);
      process.chdir(cwd);
      optimize(args);
      reply = 'ok\n';
    } catch (e) {
      reply = `error: ${e instanceof Error ? e.message : String(e)}\n`;
    }
    conn.end(reply);
  });
});
server.listen(socket, () => process.stdout.write('ready\n'));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
