#!/usr/bin/env node
// scripts/wasm-opt/client.mjs — `wasm-opt` for cargo-leptos while a resident server runs
// (scripts/wasm-opt/server.mjs, started by scripts/lib.sh's with_resident_wasm_opt): sends
// this call's arguments over ROSACE_WASM_OPT_SOCKET and exits with the server's verdict.
import { connect } from 'node:net';

const socket = process.env.ROSACE_WASM_OPT_SOCKET;
if (!socket) {
  console.error('wasm-opt client: ROSACE_WASM_OPT_SOCKET is not set');
  process.exit(2);
}
const conn = connect(socket, () => {
  conn.end(JSON.stringify({ cwd: process.cwd(), args: process.argv.slice(2) }) + '\n');
});
let reply = '';
conn.setEncoding('utf8');
conn.on('data', (chunk) => (reply += chunk));
conn.on('end', () => {
  if (reply === 'ok\n') process.exit(0);
  console.error(`wasm-opt: ${reply.trim() || 'no answer from the resident wasm-opt'}`);
  process.exit(1);
});
conn.on('error', (e) => {
  console.error(`wasm-opt: ${e.message}`);
  process.exit(1);
});
