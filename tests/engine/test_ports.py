"""The ports the tests' and benchmarks' servers take: free, and outside the kernel's range for outgoing connections."""
import socket

import pytest

from harness import chromium


@pytest.fixture
def outgoing(monkeypatch, tmp_path):
    """Sets the kernel's range for outgoing connections that free_port reads, as /proc writes it."""
    def write(low: int, high: int):
        path = tmp_path / "ip_local_port_range"
        path.write_text(f"{low}\t{high}\n")
        monkeypatch.setattr(chromium, "OUTGOING", path)
    return write


def bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def test_a_port_below_or_above_the_outgoing_range(outgoing):
    outgoing(32768, 60999)
    ports = {chromium.free_port() for _ in range(20)}
    assert all(chromium.LOWEST_PORT <= p < 32768 or p > 60999 for p in ports), ports
    assert all(bindable(p) for p in ports)


def test_a_range_that_leaves_no_port_out_lets_the_kernel_pick_one(outgoing):
    outgoing(1024, 65535)
    port = chromium.free_port()
    assert 1024 <= port <= 65535 and bindable(port)


def test_the_range_is_read_as_the_kernel_writes_it(outgoing):
    outgoing(40000, 50000)
    assert chromium.outgoing_ports() == (40000, 50000)
