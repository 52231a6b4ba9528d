'use strict';
// Independent RFC 8785 oracle for JcsNodeOracleTest: ECMAScript's own JSON.parse, Array.prototype.sort
// (UTF-16 code unit order) and JSON.stringify (ECMAScript string escaping and Number::toString).
//   node oracle.js documents   one JSON text per input line -> one canonical text per output line
//   node oracle.js doubles     one IEEE 754 bit pattern (hex) per line -> JSON.stringify of that number
const fs = require('fs');

function canonical(value) {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return '[' + value.map(canonical).join(',') + ']';
  }
  return '{' + Object.keys(value).sort()
    .map((key) => JSON.stringify(key) + ':' + canonical(value[key])).join(',') + '}';
}

const lines = fs.readFileSync(0, 'utf8').split('\n');
if (lines[lines.length - 1] === '') {
  lines.pop();
}
let out;
if (process.argv[2] === 'documents') {
  out = lines.map((line) => canonical(JSON.parse(line)));
} else if (process.argv[2] === 'doubles') {
  const buffer = Buffer.alloc(8);
  out = lines.map((hex) => {
    buffer.writeBigUInt64BE(BigInt('0x' + hex));
    return JSON.stringify(buffer.readDoubleBE(0));
  });
} else {
  process.stderr.write('usage: node oracle.js documents|doubles\n');
  process.exit(2);
}
process.stdout.write(out.join('\n') + '\n');
