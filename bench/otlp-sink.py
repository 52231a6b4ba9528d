# A local OTLP/HTTP sink for the benches: answers 200 with an empty body to every POST and keeps
# the running totals of requests and body bytes in TOTALS_FILE ("requests bytes"); writes its port
# to PORT_FILE once listening.
#
#   python3 bench/otlp-sink.py PORT_FILE TOTALS_FILE
import http.server
import sys
import threading

port_file, totals_file = sys.argv[1], sys.argv[2]
totals = [0, 0]
lock = threading.Lock()


class Sink(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(n)
        with lock:
            totals[0] += 1
            totals[1] += n
            with open(totals_file, "w") as f:
                f.write("%d %d\n" % (totals[0], totals[1]))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sink)
with open(port_file, "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
