"""The words of the sandbox's restaurants: how their names are made, the features
they list, which cuisine a country calls its own, and what their reviews say.

The dishes themselves are in :mod:`creditscope.sandbox.dishes`.
"""

from __future__ import annotations

NAME_PATTERNS: dict[str, tuple[str, ...]] = {
    "italian": ("Trattoria {w}", "Osteria {w}", "Pizzeria {w}", "Da {p}", "{w} Cucina"),
    "japanese": ("Izakaya {w}", "{w} Sushi", "Ramen {w}", "Sakura {w}", "{w} Kitchen"),
    "indian": ("{w} Tandoor", "Spice of {w}", "The {w} Curry House", "Masala {w}"),
    "mexican": ("La Cantina {w}", "Taquería {w}", "El {w}", "Casa {w}"),
    "thai": ("Bangkok {w}", "{w} Thai", "Baan {w}", "Lemongrass {w}"),
    "french": ("Bistro {w}", "Chez {p}", "Café {w}", "Brasserie {w}"),
    "korean": ("Seoul {w}", "{w} BBQ", "Bibim {w}", "Hanok {w}"),
    "greek": ("Taverna {w}", "Olive {w}", "{w} Meze", "Kafeneio {w}"),
    "turkish": ("Ocakbaşı {w}", "{w} Kebab House", "Anatolia {w}", "Meze {w}"),
    "vietnamese": ("Phở {w}", "Saigon {w}", "Little {w}", "Bánh Mì {w}"),
    "portuguese": ("Taberna {w}", "Tasca do {p}", "Casa {w}", "O {w}"),
    "spanish": ("Taberna {w}", "Casa {p}", "Bodega {w}", "El Rincón {w}"),
    "brazilian": ("Churrascaria {w}", "Boteco {w}", "Casa {p}", "Sabor {w}"),
    "chinese": ("Golden {w}", "Jade {w}", "{w} Dumpling House", "Dragon {w}"),
    "german": ("Gasthaus {w}", "Zum {w}", "{w} Stube", "Wirtshaus {p}"),
    "british": ("The {w} Arms", "The {w} Inn", "{w} & Co", "The Red {w}"),
    "american": ("{w} Diner", "{p}'s Grill", "{w} Smokehouse", "The {w} Kitchen"),
    "argentinian": ("Parrilla {w}", "El Gaucho {w}", "La Estancia {w}", "Don {p}"),
    "peruvian": ("Cevichería {w}", "Inka {w}", "Lima {w}", "La Chola {w}"),
    "lebanese": ("Beirut {w}", "Cedar {w}", "Byblos {w}", "Mezze {w}"),
    "moroccan": ("Riad {w}", "Dar {w}", "Marrakech {w}", "Tagine {w}"),
    "ethiopian": ("Addis {w}", "Lalibela {w}", "Injera {w}", "Habesha {w}"),
}
NAME_WORDS = (
    "Luna",
    "Sole",
    "Verde",
    "Rosa",
    "Bella",
    "Maya",
    "Lotus",
    "Jasmine",
    "Harbour",
    "Garden",
    "Market",
    "Corner",
    "Oliva",
    "Salt",
    "Ember",
    "Saffron",
    "Basil",
    "Lantern",
    "Willow",
    "Figo",
)
LOCAL_CUISINE = {
    "IT": "italian",
    "JP": "japanese",
    "IN": "indian",
    "MX": "mexican",
    "TH": "thai",
    "FR": "french",
    "KR": "korean",
    "GR": "greek",
    "TR": "turkish",
    "VN": "vietnamese",
    "CY": "greek",
    "PT": "portuguese",
    "ES": "spanish",
    "BR": "brazilian",
    "CN": "chinese",
    "TW": "chinese",
    "HK": "chinese",
    "MO": "chinese",
    "DE": "german",
    "AT": "german",
    "GB": "british",
    "US": "american",
    "AR": "argentinian",
    "PE": "peruvian",
    "LB": "lebanese",
    "MA": "moroccan",
    "ET": "ethiopian",
}
LOCAL_WEIGHT = 6  # a country's own cooking is six times as common as any other
FEATURES = (
    "outdoor seating",
    "takes reservations",
    "wheelchair accessible",
    "free wifi",
    "delivery",
    "takeaway",
    "vegetarian friendly",
    "card payments",
    "live music",
    "private dining",
    "dog friendly",
    "serves alcohol",
)
REVIEW_TEXTS = {
    5: (
        "Outstanding. The {dish} was the best I have had in years.",
        "Lovely staff, great atmosphere, and the {dish} is a must.",
        "We came back twice in one week. Get the {dish}!",
    ),
    4: (
        "Very good {dish}, slightly slow service on a busy night.",
        "Solid neighbourhood spot; the {dish} was excellent.",
        "Good value and friendly. I would order the {dish} again.",
    ),
    3: (
        "The {dish} was fine but nothing special.",
        "Decent food, a bit noisy. The {dish} was OK.",
        "Mixed visit: great {dish}, disappointing dessert.",
    ),
    2: (
        "Long wait and the {dish} arrived lukewarm.",
        "Overpriced for what it is; the {dish} lacked flavour.",
    ),
    1: (
        "Cold {dish} and nobody checked on us. Won't return.",
        "Booking was lost and the {dish} was burnt.",
    ),
}
