"""What counts as a company's website, and its host as the service compares it.

One rule for the client (a value refused here is never sent or priced) and the
sandbox (which refuses the same values, for free). A website is a domain or URL
whose host is a registrable domain under a top-level domain that exists:
``northwind-labs.co.uk``, ``https://www.northwind-labs.co.uk/about``. Refused:
placeholders (``n/a``, ``-``, ``TBD``), a scheme alone (``https://``), an e-mail
address, text with spaces, an IP address, a bare public suffix (``com``,
``co.uk``) and an unknown top-level domain (``acme.notatld``; the reserved
``.example`` and ``.test`` of documentation and tests are accepted).

Registrable domains come from the public-suffix list packaged with
``publicsuffixlist`` (offline, ICANN section: a private suffix such as
``github.io`` is still a site), loaded on first use. Pure: imports nothing of
the package, so every layer may use it.
"""

from __future__ import annotations

import re
from functools import cache
from urllib.parse import urlsplit

from publicsuffixlist import PublicSuffixList

# RFC 2606's names for documentation and tests (``acme.example``): never on the list,
# always well formed.
RESERVED_TLDS = frozenset({"example", "test"})
_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
_MAX_HOST = 253
_SHOWN = 40  # a refused value is quoted up to this many characters, never a pasted page


@cache
def _suffixes() -> PublicSuffixList:
    return PublicSuffixList(only_icann=True)


def _ascii_label(label: str) -> str:
    if label.isascii():
        return label
    try:
        return label.encode("idna").decode("ascii")
    except UnicodeError:
        # Outside IDNA 2003 (emoji, some scripts): the bare Punycode form still names it.
        return "xn--" + label.encode("punycode").decode("ascii")


def website_host(website: str) -> str:
    """The host of a website as typed, lower case, IDN as Punycode, without its trailing
    dot: ``"HTTPS://WWW.Northwind.com:8443/about"`` -> ``"www.northwind.com"``; "" if none."""
    text = website.strip()
    if "://" not in text:
        text = "http://" + text
    try:
        host = urlsplit(text).hostname or ""
    except ValueError:  # an unbalanced "[" reads as a broken IPv6 literal
        return ""
    try:
        return ".".join(_ascii_label(label) for label in host.rstrip(".").lower().split("."))
    except UnicodeError:
        return ""


def _shown(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def website_problem(website: str) -> str | None:
    """Why ``website`` is not a website the service can compare (a phrase that follows
    the field's name: "is an e-mail address, ..."), or None when it is one.
    Blank is not a problem: it means no website."""
    text = website.strip()
    if not text:
        return None
    if any(char.isspace() for char in text):
        return f"must be a domain or URL such as example.com, not “{_shown(text)}” (it has spaces)"
    if "@" in text:
        return "is an e-mail address, not a website: give the site, such as example.com"
    host = website_host(text)
    labels = host.split(".")
    not_a_site = f"must be a domain or URL such as example.com, not “{_shown(text)}”"
    if len(host) > _MAX_HOST or not all(_LABEL.match(label) for label in labels) \
            or labels[-1].isdigit():  # an IP address is no company's website either
        return not_a_site
    suffixes = _suffixes()
    if labels[-1] in RESERVED_TLDS:
        return None if len(labels) > 1 else not_a_site
    if suffixes.publicsuffix(host, accept_unknown=False) is None:
        return not_a_site if len(labels) == 1 else \
            f"ends in .{labels[-1]}, which is not a top-level domain"
    if suffixes.privatesuffix(host) is None:
        return f"is {host} alone, a public suffix shared by many sites, not a company's website"
    return None


def website_identity(website: str) -> str:
    """The host that names the same website however it is written: scheme, port, path,
    case and a leading ``www.`` ignored (``https://www.x.co.uk/`` and ``x.co.uk`` are one).

    Other subdomains are kept: the service grades a page ``high`` when it lists exactly
    the passed website, so ``shop.x.co.uk`` may be graded apart from ``x.co.uk``. ``www.``
    is dropped only where the rest is still registrable (``www.com`` stays itself).
    """
    host = website_host(website)
    bare = host.removeprefix("www.")
    if bare != host and _suffixes().privatesuffix(bare) is not None:
        return bare
    return host
