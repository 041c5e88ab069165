"""Local currencies: rough rates from euros, minor units and display formats."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Currency:
    """How one currency is priced and written."""

    code: str
    symbol: str
    decimals: int  # digits of the minor unit: 2 for cents, 0 for yen
    per_euro: float  # rough exchange rate, for believable local prices
    symbol_after: bool = False  # "45,00 kr" style


CURRENCIES: dict[str, Currency] = {
    c.code: c
    for c in (
        Currency("EUR", "€", 2, 1.0),
        Currency("USD", "$", 2, 1.1),
        Currency("GBP", "£", 2, 0.85),
        Currency("JPY", "¥", 0, 160.0),
        Currency("CNY", "¥", 2, 7.8),
        Currency("KRW", "₩", 0, 1450.0),
        Currency("INR", "₹", 2, 90.0),
        Currency("CAD", "CA$", 2, 1.5),
        Currency("AUD", "A$", 2, 1.65),
        Currency("NZD", "NZ$", 2, 1.8),
        Currency("CHF", "CHF ", 2, 0.95),
        Currency("SEK", " kr", 2, 11.5, symbol_after=True),
        Currency("NOK", " kr", 2, 11.7, symbol_after=True),
        Currency("DKK", " kr", 2, 7.45, symbol_after=True),
        Currency("PLN", " zł", 2, 4.3, symbol_after=True),
        Currency("CZK", " Kč", 2, 25.0, symbol_after=True),
        Currency("HUF", " Ft", 0, 395.0, symbol_after=True),
        Currency("BRL", "R$", 2, 6.0),
        Currency("MXN", "MX$", 2, 19.0),
        Currency("ARS", "ARS ", 2, 1000.0),
        Currency("CLP", "CLP ", 0, 1020.0),
        Currency("COP", "COP ", 0, 4400.0),
        Currency("TRY", "₺", 2, 37.0),
        Currency("ZAR", "R", 2, 20.0),
        Currency("SGD", "S$", 2, 1.45),
        Currency("HKD", "HK$", 2, 8.5),
        Currency("TWD", "NT$", 0, 35.0),
        Currency("THB", "฿", 2, 38.0),
        Currency("VND", "₫", 0, 27500.0),
        Currency("IDR", "Rp", 0, 17500.0),
        Currency("MYR", "RM", 2, 4.9),
        Currency("PHP", "₱", 2, 62.0),
        Currency("AED", "AED ", 2, 4.0),
        Currency("SAR", "SAR ", 2, 4.1),
        Currency("ILS", "₪", 2, 4.0),
        Currency("EGP", "E£", 2, 53.0),
        Currency("NGN", "₦", 2, 1700.0),
        Currency("KES", "KSh", 2, 140.0),
        Currency("RUB", "₽", 2, 100.0),
        Currency("UAH", "₴", 2, 45.0),
        Currency("PKR", "Rs", 2, 305.0),
    )
}


def currency_for(code: str) -> Currency:
    """The currency with this ISO code; one we do not price falls back to US dollars."""
    return CURRENCIES.get(code, CURRENCIES["USD"])


def local_amount(euros: float, currency: Currency) -> float:
    """A euro price converted and rounded to a price a shop would charge."""
    value = euros * currency.per_euro
    if currency.decimals == 0 or value >= 1000:
        step = 10 ** max(0, len(str(int(value))) - 2)  # two significant digits
        return float(max(step, round(value / step) * step))
    if value >= 100:
        return float(round(value / 5) * 5)  # 195.00, 725.00
    return max(0.5, round(value * 2) / 2)  # nearest half unit: 12.50, 13.00


def to_minor(amount: float, currency: Currency) -> int:
    """The amount in minor units (cents; yen are already minor)."""
    # A float power: int ** int is typed Any (a negative exponent gives a float).
    return round(amount * 10.0**currency.decimals)


def display(minor: int, currency: Currency) -> str:
    """``"€45.00"``, ``"£30.00"``, ``"¥4,500"``, ``"120.00 kr"``."""
    major = minor / 10**currency.decimals
    number = f"{major:,.{currency.decimals}f}"
    if currency.symbol_after:
        return f"{number}{currency.symbol}"
    return f"{currency.symbol}{number}"
