#!/usr/bin/python3
"""The CPU a TCP path costs per message and per byte (both ends together).

A ping-pong of SIZE-byte messages between two processes: `serve` echoes
every message back and, at EOF, writes its own CPU seconds to a file;
`client` sends ROUNDS messages, reads each echo, and prints
`SIZE CPU_PER_MESSAGE` where CPU_PER_MESSAGE is (client CPU + server CPU) /
(2 x ROUNDS): what one message costs its sender and receiver, the same
quantity `augur calibrate` measures on loopback (seconds_per_message and
seconds_per_message_byte are the fit of it over the message size).

scripts/bench-fidelity.sh runs it on loopback and across its network
namespaces: the difference is what the shaped path (veth pairs, a bridge,
`tc tbf`, 1500-byte frames) costs beyond loopback. Its per-byte part comes
from messages larger than tbf's bucket, which the sender pushes out as the
tokens refill (16 KiB messages cost no more than on loopback), so the
simulator charges it to bytes that wait for a busy link
(seconds_per_queued_byte). The interpreter's own cost per message is in
both and cancels in the difference.

Usage:
  path_cost.py serve HOST PORT SIZE CPU_FILE      (listens; one connection)
  path_cost.py client HOST PORT SIZE ROUNDS CPU_FILE
                                        (waits for CPU_FILE after closing)
  path_cost.py fit SMALL_LINE LARGE_LINE BASE_SMALL_LINE BASE_LARGE_LINE
                                        (prints the extra fixed and per-byte
                                         seconds of the path over the base)
"""
import os
import socket
import sys
import time


def cpu_seconds():
    return time.process_time()  # user + system of the whole process, ns resolution


def recv_exactly(sock, view):
    got = 0
    while got < len(view):
        n = sock.recv_into(view[got:])
        if n == 0:
            return False
        got += n
    return True


def serve(host, port, size, cpu_file):
    listener = socket.create_server((host, port))
    conn, _ = listener.accept()
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    start = cpu_seconds()
    buf = bytearray(size)
    view = memoryview(buf)
    while recv_exactly(conn, view):
        conn.sendall(view)
    with open(cpu_file + ".tmp", "w") as f:
        f.write("%.9f\n" % (cpu_seconds() - start))
    os.rename(cpu_file + ".tmp", cpu_file)


def client(host, port, size, rounds, cpu_file):
    deadline = time.monotonic() + 10
    while True:
        try:
            sock = socket.create_connection((host, port))
            break
        except OSError:
            if time.monotonic() > deadline:
                sys.exit("path_cost.py: cannot connect to %s:%d" % (host, port))
            time.sleep(0.05)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    start = cpu_seconds()
    buf = bytearray(size)
    view = memoryview(buf)
    for _ in range(rounds):
        sock.sendall(view)
        if not recv_exactly(sock, view):
            sys.exit("path_cost.py: the server closed early")
    mine = cpu_seconds() - start
    sock.close()
    while not os.path.exists(cpu_file):
        if time.monotonic() > deadline + 600:
            sys.exit("path_cost.py: no CPU figure from the server")
        time.sleep(0.02)
    theirs = float(open(cpu_file).read())
    print("%d %.9e" % (size, (mine + theirs) / (2 * rounds)))


def fit(small, large):
    (s_bytes, s_cpu), (l_bytes, l_cpu) = small, large
    per_byte = (l_cpu - s_cpu) / (l_bytes - s_bytes)
    return s_cpu - per_byte * s_bytes, per_byte


def main(argv):
    if len(argv) >= 1 and argv[0] == "serve" and len(argv) == 5:
        serve(argv[1], int(argv[2]), int(argv[3]), argv[4])
    elif len(argv) >= 1 and argv[0] == "client" and len(argv) == 6:
        client(argv[1], int(argv[2]), int(argv[3]), int(argv[4]), argv[5])
    elif len(argv) == 5 and argv[0] == "fit":
        lines = [tuple(float(x) for x in a.split()) for a in argv[1:]]
        fixed, per_byte = fit(lines[0], lines[1])
        base_fixed, base_per_byte = fit(lines[2], lines[3])
        print("%.9e %.9e" % (max(0.0, fixed - base_fixed), max(0.0, per_byte - base_per_byte)))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
