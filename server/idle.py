"""Idle connections, as the kernel sees this process's sockets (Linux: /proc/self/fd and TCP_INFO). uvicorn keeps a
connection that never sends a request for as long as its client keeps it open, each one an open file; where the
open-files limit is low, a script's idle connections take every descriptor, and the health check waits in the queue
behind them. server/files.py asks close_idle() to make room: the connections accepted by this process's listening
sockets that have sent not one byte for GRACE_S are shut down, those silent longest first. A visitor's request,
websocket or held class question has sent bytes and is never among them; nor is a connection this process opened
itself (its database's), which no listening socket accepted. queued() reads how many connections wait to be accepted
on a listening socket."""
import contextlib
import os
import socket
import stat
import struct
from dataclasses import dataclass
from pathlib import Path

FDS = Path("/proc/self/fd")
GRACE_S = 1.0  # a client sends its request as soon as it is connected: this long with nothing sent, it is idle
TCP_INFO_SIZE = 232  # struct tcp_info up to tcpi_bytes_received (Linux 4.1)
QUEUED_AT, QUIET_AT, RECEIVED_AT = 24, 52, 128  # tcpi_unacked (a listener's queue), tcpi_last_data_recv (ms), bytes


@dataclass(frozen=True)
class Seen:
    """One TCP socket of this process."""
    fd: int
    port: int  # its local port
    listening: bool
    received: int = 0  # a connection's bytes received
    quiet_ms: int = 0  # milliseconds since the connection last received any


def available() -> bool:
    """Whether the kernel lets this process read its sockets this way (Linux)."""
    return FDS.is_dir() and hasattr(socket, "TCP_INFO") and hasattr(socket, "SO_ACCEPTCONN")


def seen(sock: socket.socket) -> Seen | None:
    """What `sock` is, None for anything but TCP over IP."""
    if sock.family not in (socket.AF_INET, socket.AF_INET6) or sock.type != socket.SOCK_STREAM:
        return None
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_SIZE)
    port = sock.getsockname()[1]
    if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN):
        return Seen(sock.fileno(), port, True)
    if len(info) < RECEIVED_AT + 8:
        return None  # a kernel too old to say what a connection received
    return Seen(sock.fileno(), port, False, received=struct.unpack_from("Q", info, RECEIVED_AT)[0],
                quiet_ms=struct.unpack_from("I", info, QUIET_AT)[0])


@contextlib.contextmanager
def borrowed(fd: int):
    """A socket object over descriptor `fd` for the block (None if none, or closed meanwhile), left its owner's."""
    # Never while a default timeout is set: a socket made then would be set non-blocking, and the mode belongs to the
    # descriptor's owner.
    try:
        sock = socket.socket(fileno=fd) if socket.getdefaulttimeout() is None else None
    except OSError:
        sock = None
    try:
        yield sock
    finally:
        if sock is not None:
            sock.detach()


def look(fd: int) -> Seen | None:
    """The socket at descriptor `fd`, read without taking it over (None if it is none, or closed meanwhile)."""
    with borrowed(fd) as sock, contextlib.suppress(OSError):
        return None if sock is None else seen(sock)
    return None


def sockets() -> list[Seen]:
    """Every TCP socket this process holds (reading the folder takes a descriptor: the caller keeps one free)."""
    found = []
    for name in os.listdir(FDS):
        with contextlib.suppress(OSError, ValueError):
            if stat.S_ISSOCK(os.fstat(int(name)).st_mode):
                found.append(look(int(name)))
    return [s for s in found if s is not None]


def idle(found: Seen, ports: set[int]) -> bool:
    """Whether a socket is a connection a listener of this process accepted that has sent nothing for GRACE_S."""
    return (not found.listening and found.port in ports and found.received == 0
            and found.quiet_ms >= GRACE_S * 1000)


def close_idle(wanted: int) -> int:
    """Shut down up to `wanted` idle connections, those silent longest first: how many were."""
    found = sockets()
    ports = {s.port for s in found if s.listening}
    chosen = sorted((s for s in found if idle(s, ports)), key=lambda s: -s.quiet_ms)[:wanted]
    return sum(shut(s.fd, ports) for s in chosen)


def queued(sock: socket.socket) -> int:
    """The connections waiting to be accepted on the listening socket `sock` (0 where it cannot be read)."""
    try:
        return struct.unpack_from("I", sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_SIZE),
                                  QUEUED_AT)[0]
    except (OSError, struct.error):
        return 0


def shut(fd: int, ports: set[int]) -> bool:
    """Shut the connection at `fd` down if it is still idle (its owner sees the end and closes it)."""
    with borrowed(fd) as sock, contextlib.suppress(OSError):
        now = None if sock is None else seen(sock)
        if sock is not None and now is not None and idle(now, ports):
            sock.shutdown(socket.SHUT_RDWR)
            return True
    return False
