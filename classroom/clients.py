"""The client's address, as class mode's limits key it: the peer of the connection, or, when that peer is a proxy the
operator named in CLASS_TRUSTED_PROXIES (addresses or networks, comma-separated: deploy/compose.yaml names its
nginx's address, deploy/local.sh 127.0.0.1), the address that proxy says it saw in X-Forwarded-For. A header from
anyone else is not read: a script could name any address in it. (The server's uvicorn itself takes the header from a
peer in FORWARDED_ALLOW_IPS as the peer's address; unset, from these same proxies alone: server/forwarded.py.)

An IPv6 client is keyed by its /64 network: one machine is given a whole /64 and can take any address in it."""
import functools
import ipaddress
import os

TRUSTED_ENV = "CLASS_TRUSTED_PROXIES"
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@functools.lru_cache(maxsize=8)
def trusted(value: str) -> tuple[Network, ...]:
    """The networks a CLASS_TRUSTED_PROXIES value names; what is not an address or a network is left out."""
    found = []
    for part in value.split(","):
        try:
            found.append(ipaddress.ip_network(part.strip(), strict=False))
        except ValueError:
            continue
    return tuple(found)


def parsed(text: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address as written (IPv4, IPv6, an IPv4-mapped IPv6 as its IPv4), None for anything else."""
    try:
        found = ipaddress.ip_address((text or "").strip())
    except ValueError:
        return None
    mapped = getattr(found, "ipv4_mapped", None)
    return mapped or found


def address(peer: str | None, forwarded: str | None, proxies: str | None = None) -> str:
    """The client's address as a limit's key: the peer's, or the one its trusted proxies saw; '' for no peer."""
    # While the address in hand is a trusted proxy's, take the one before it in X-Forwarded-For, read from its end: each
    # proxy appends the address it saw.
    networks = trusted(os.environ.get(TRUSTED_ENV, "") if proxies is None else proxies)
    hops = [h for h in (forwarded or "").split(",")[-16:] if h.strip()]
    found = parsed(peer)
    while found is not None and hops and any(found in n for n in networks):
        before = parsed(hops.pop())
        if before is None:
            break  # the proxy passed on something that is no address: the proxy is the client as far as we know
        found = before
    return key(found) if found is not None else (peer or "")


def key(found: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    """An IPv4 address as it is; an IPv6 address as its /64 network."""
    if found.version == 6:
        return str(ipaddress.ip_network(f"{found}/64", strict=False))
    return str(found)
