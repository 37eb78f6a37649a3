#!/usr/bin/python3
"""bind_port.py PORTFILE CMD...: binds a listening socket on a free loopback
port, writes the port to PORTFILE (atomically: temp file + rename) and execs
CMD with the socket as descriptor 3 and every "{port}" in CMD replaced by the
port. The port is never free between its pick and its use. Used by lib.sh's
with_bound_port and by rank0_binds.sh."""
import os
import socket
import sys

s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(128)
port = str(s.getsockname()[1])
if s.fileno() != 3:
    os.dup2(s.fileno(), 3)
os.set_inheritable(3, True)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(port)
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
args = [a.replace("{port}", port) for a in sys.argv[2:]]
os.execvp(args[0], args)
