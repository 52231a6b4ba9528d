'use strict';
// Loopback forwarder for the e2e suite's network namespace: accepts on 127.0.0.1:PORT and pipes each
// connection to the Unix socket SOCKET, which the test serves from outside the namespace. Prints
// "ready" once listening.
//
//   node loopback-forwarder.cjs PORT SOCKET
const net = require('net');
const [port, socket] = process.argv.slice(2);
const server = net.createServer((client) => {
  const upstream = net.connect(socket);
  const closeBoth = () => { client.destroy(); upstream.destroy(); };
  client.on('error', closeBoth);
  upstream.on('error', closeBoth);
  client.pipe(upstream);
  upstream.pipe(client);
});
server.on('error', (e) => { process.stderr.write('loopback-forwarder: ' + e.message + '\n'); process.exit(1); });
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
