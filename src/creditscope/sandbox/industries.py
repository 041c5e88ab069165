"""The fields a company page can be in, each with the words that name it and the
tagline, description and specialties that belong to it, so a page never says
"logistics" in its industry and "bakery" in its specialties."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Industry:
    """One field: its name words, what a company in it does, and how it talks about it."""

    name: str
    words: tuple[str, ...]  # name words that put a company in this field
    noun: str  # "a ... company headquartered in"
    offer: str  # "it ... for customers in"
    taglines: tuple[str, ...]
    specialties: tuple[str, ...]
    consumer: bool = False  # consumer brands gather more followers per employee
    local: bool = False  # a trade of small local businesses


INDUSTRIES: tuple[Industry, ...] = (
    Industry(
        "Information Technology & Services", ("analytics", "data", "cloud", "ai", "systems"),
        "data and IT services company", "builds data platforms and runs cloud systems",
        ("Data you can act on.", "Your systems, running smoothly.", "Clarity from every byte."),
        ("data engineering", "cloud migration", "analytics", "managed services",
         "business intelligence", "IT consulting"),
    ),
    Industry(
        "Computer Software", ("software", "security", "mobile", "digital", "online"),
        "software company", "makes software that teams use every day",
        ("Software that gets out of the way.", "Built for the teams who ship.",
         "Simple tools for hard problems."),
        ("SaaS", "developer tools", "APIs", "security", "mobile apps", "workflow automation"),
    ),
    Industry(
        "Research", ("labs", "lab", "laboratories", "research"),
        "research company", "runs applied research and turns it into products",
        ("Curiosity, applied.", "From the lab to the real world.", "Asking better questions."),
        ("applied research", "prototyping", "machine learning", "materials science",
         "field trials", "technology transfer"),
    ),
    Industry(
        "Transportation & Logistics", ("logistics", "freight", "shipping", "transport"),
        "logistics company", "moves freight by road, sea and air",
        ("We move things forward.", "On time, every time.", "Your supply chain, handled."),
        ("freight forwarding", "warehousing", "last-mile delivery", "customs brokerage",
         "cold chain", "fleet management"),
    ),
    Industry(
        "Food & Beverages", ("foods", "food", "beverages", "brewing", "coffee", "kitchen"),
        "food and beverage company", "makes food and drink sold in shops and restaurants",
        ("Good food, honestly made.", "From the farm to your table.", "Taste you can trust."),
        ("packaged foods", "organic produce", "beverages", "food service", "private label",
         "sustainable sourcing"),
        consumer=True,
    ),
    Industry(
        "Renewables & Environment", ("energy", "solar", "power"),
        "renewable energy company", "builds and runs solar and wind power",
        ("Cleaner power, every day.", "Energy for the next century.", "Powered by nature."),
        ("solar farms", "wind power", "energy storage", "grid services", "energy efficiency",
         "carbon accounting"),
    ),
    Industry(
        "Hospital & Health Care", ("health", "healthcare", "medical", "clinic", "care"),
        "health care company", "runs clinics and care services",
        ("Care that comes to you.", "Healthier lives, together.", "People first, always."),
        ("primary care", "telehealth", "diagnostics", "patient experience", "home care",
         "clinical services"),
    ),
    Industry(
        "Pharmaceuticals", ("pharma", "pharmaceuticals", "biotech", "therapeutics"),
        "pharmaceutical company", "develops and manufactures medicines",
        ("Science for better health.", "Medicines that matter.", "Discovery with purpose."),
        ("drug discovery", "clinical trials", "biologics", "generics", "regulatory affairs",
         "manufacturing"),
    ),
    Industry(
        "Financial Services", ("capital", "finance", "financial", "investments", "payments"),
        "financial services company", "manages investments and payments",
        ("Capital with conviction.", "Your money, working harder.", "Finance made clear."),
        ("asset management", "private equity", "payments", "wealth management",
         "corporate finance", "risk management"),
    ),
    Industry(
        "Banking", ("bank", "banking"),
        "bank", "provides accounts, loans and savings",
        ("Banking that puts you first.", "Trusted since day one.", "Your bank, your way."),
        ("retail banking", "business banking", "mortgages", "savings", "lending",
         "online banking"),
        consumer=True,
    ),
    Industry(
        "Insurance", ("insurance", "assurance"),
        "insurance company", "insures homes, cars and businesses",
        ("Cover you can count on.", "Peace of mind, simply.", "There when it matters."),
        ("home insurance", "motor insurance", "commercial lines", "claims handling",
         "life insurance", "reinsurance"),
        consumer=True,
    ),
    Industry(
        "Online Media", ("media", "press", "news", "films", "pictures", "studios", "records",
                         "music", "games"),
        "media company", "publishes stories, video and podcasts",
        ("Stories worth sharing.", "Made to be watched.", "Culture, in real time."),
        ("digital publishing", "video production", "podcasts", "audience development",
         "branded content", "streaming"),
        consumer=True,
    ),
    Industry(
        "Publishing", ("publishing", "books"),
        "publishing house", "publishes books in print and digital editions",
        ("Every book a new world.", "Words that last.", "Reading, for everyone."),
        ("trade publishing", "educational books", "e-books", "audiobooks", "rights licensing",
         "editorial services"),
        consumer=True,
    ),
    Industry(
        "Industrial Automation", ("robotics", "automation", "engineering", "electric",
                                  "electronics", "motors"),
        "industrial automation company", "designs robots and control systems for factories",
        ("Precision, automated.", "Machines that work with people.", "Built to run."),
        ("industrial robots", "control systems", "machine vision", "predictive maintenance",
         "motion control", "factory automation"),
    ),
    Industry(
        "Design", ("design", "studio", "creative", "architects", "agency"),
        "design studio", "designs brands, products and spaces",
        ("Design that means something.", "Form, function, feeling.", "Ideas, made visible."),
        ("brand identity", "product design", "UX design", "interior design", "packaging",
         "art direction"),
    ),
    Industry(
        "Management Consulting", ("consulting", "advisory", "partners", "associates"),
        "consulting firm", "advises leadership teams on strategy and operations",
        ("Better decisions, faster.", "Strategy you can execute.", "Advice that delivers."),
        ("strategy", "operations", "change management", "due diligence",
         "organisational design", "transformation"),
    ),
    Industry(
        "Legal Services", ("legal", "law", "chambers", "solicitors"),
        "law firm", "advises businesses and families on the law",
        ("Clear advice, firmly given.", "On your side.", "Law, made understandable."),
        ("corporate law", "employment law", "litigation", "intellectual property",
         "real estate law", "tax advice"),
    ),
    Industry(
        "Leisure, Travel & Tourism", ("travel", "tours", "holidays"),
        "travel company", "plans trips and tours",
        ("The world, closer.", "Journeys worth remembering.", "Go further."),
        ("tour operations", "corporate travel", "city breaks", "adventure travel",
         "group tours", "travel booking"),
        consumer=True,
    ),
    Industry(
        "Hospitality", ("hotels", "hotel", "resorts", "hospitality", "inns"),
        "hospitality company", "runs hotels and resorts",
        ("Feel at home, anywhere.", "Stay a little longer.", "Hospitality, perfected."),
        ("hotels", "resorts", "events and conferences", "food and beverage", "guest experience",
         "revenue management"),
        consumer=True,
    ),
    Industry(
        "Airlines/Aviation", ("airlines", "aviation", "air", "airways"),
        "aviation company", "flies passengers and cargo and maintains aircraft",
        ("Above and beyond.", "Connecting people and places.", "Fly with confidence."),
        ("scheduled flights", "air cargo", "aircraft maintenance", "charter flights",
         "ground handling", "pilot training"),
        consumer=True,
    ),
    Industry(
        "Real Estate", ("residences", "homes", "properties", "realty", "estates"),
        "real estate company", "develops and lets homes and offices",
        ("Places people love to live.", "Building communities.", "Home starts here."),
        ("residential development", "property management", "commercial real estate",
         "lettings", "sales", "urban regeneration"),
    ),
    Industry(
        "Construction", ("construction", "builders", "roofing"),
        "construction company", "builds homes, schools and offices",
        ("Built to last.", "Solid foundations.", "From plan to keys."),
        ("general contracting", "civil engineering", "renovation", "project management",
         "sustainable building", "fit-out"),
    ),
    Industry(
        "Consumer Goods", ("toys", "fashion", "apparel", "goods", "brands"),
        "consumer goods company", "designs and sells products for everyday life",
        ("Made for everyday life.", "Quality you can measure.", "Joy in every box."),
        ("product design", "e-commerce", "retail partnerships", "sustainable materials",
         "licensing", "direct to consumer"),
        consumer=True,
    ),
    Industry(
        "Retail", ("retail", "stores", "market", "traders", "trading", "supply"),
        "retail and trading company", "sells goods in stores and online",
        ("Everything you need, in one place.", "Good value, every day.", "Shop with us."),
        ("retail", "wholesale", "e-commerce", "imports", "merchandising", "supply chain"),
        consumer=True,
    ),
    Industry(
        "Telecommunications", ("telecom", "communications", "networks"),
        "telecommunications company", "runs mobile and broadband networks",
        ("Always connected.", "The network that keeps up.", "Closer, wherever you are."),
        ("mobile networks", "broadband", "fibre", "enterprise connectivity", "IoT",
         "unified communications"),
        consumer=True,
    ),
    Industry(
        "Education", ("education", "academy", "school", "learning"),
        "education company", "teaches courses online and in classrooms",
        ("Learning for life.", "Every learner, every day.", "Knowledge that opens doors."),
        ("online courses", "tutoring", "corporate training", "language learning",
         "curriculum design", "certification"),
    ),
    Industry(
        "Non-profit Organization Management", ("foundation", "trust", "charity"),
        "non-profit organisation", "funds community projects and research",
        ("Together, we can.", "Giving with purpose.", "Change that lasts."),
        ("grant making", "community programmes", "fundraising", "advocacy", "volunteering",
         "research funding"),
    ),
    Industry(
        "Local Services",
        ("bakery", "plumbing", "dental", "childcare", "salon", "florist", "cafe", "barber",
         "cleaning", "garage", "deli", "tailor", "laundry", "butcher", "pizzeria", "catering",
         "gardening", "electricians", "fitness"),
        "local business", "serves households and shops",
        ("Your neighbours, at your service.", "Local and proud.", "Friendly, reliable, near you."),
        ("local service", "appointments", "family run", "same-day service", "repairs",
         "community"),
        local=True,
    ),
)
# Fields of the well-known companies only (listed.py): no name word points to them.
LISTED_INDUSTRIES: tuple[Industry, ...] = (
    Industry(
        "Automotive", (), "car maker", "designs, builds and sells cars and commercial vehicles",
        ("Moving people forward.", "Mobility for everyone.", "Engineered to last."),
        ("passenger cars", "electric vehicles", "commercial vehicles", "mobility services",
         "autonomous driving", "after-sales service"),
        consumer=True,
    ),
    Industry(
        "Semiconductors", (), "semiconductor company", "designs and makes chips",
        ("Computing, accelerated.", "The silicon inside.", "Powering what's next."),
        ("processors", "memory", "chip design", "foundry services", "AI accelerators",
         "wireless chips"),
    ),
    Industry(
        "Oil & Energy", (), "energy company", "produces, refines and sells oil, gas and power",
        ("Energy for a changing world.", "Powering progress.", "More energy, fewer emissions."),
        ("oil and gas", "refining", "LNG", "chemicals", "low-carbon energy", "trading"),
    ),
    Industry(
        "Utilities", (), "utility", "generates and distributes electricity, gas and water",
        ("Power you can count on.", "Energy for every home.", "Keeping the lights on."),
        ("electricity", "gas networks", "water", "renewable generation", "grid operation",
         "retail energy"),
    ),
    Industry(
        "Chemicals", (), "chemical company", "makes chemicals, materials and industrial gases",
        ("Chemistry for a better life.", "Materials that make a difference.",
         "Science at work."),
        ("specialty chemicals", "industrial gases", "coatings", "plastics", "agricultural "
         "solutions", "materials science"),
    ),
    Industry(
        "Mining & Metals", (), "mining company", "mines and refines metals and minerals",
        ("Resources for a growing world.", "From the ground up.", "Metals for tomorrow."),
        ("iron ore", "copper", "aluminium", "steel", "exploration", "recycling"),
    ),
    Industry(
        "Consumer Electronics", (), "consumer electronics company",
        "designs phones, computers and devices people use every day",
        ("Technology for everyone.", "Designed for the way you live.", "Do more with less."),
        ("smartphones", "computers", "wearables", "displays", "home appliances", "services"),
        consumer=True,
    ),
    Industry(
        "Internet", (), "internet company", "runs search, social and cloud services",
        ("Bringing the world closer together.", "Organising information.",
         "Connecting people and ideas."),
        ("search", "advertising", "social media", "cloud computing", "e-commerce", "AI"),
        consumer=True,
    ),
    Industry(
        "Aviation & Aerospace", (), "aerospace and defence company",
        "builds aircraft, engines and defence systems",
        ("Defining the future of flight.", "Safety in every mission.", "Built to fly."),
        ("commercial aircraft", "jet engines", "defence systems", "space", "avionics",
         "maintenance services"),
    ),
    Industry(
        "Medical Devices", (), "medical technology company",
        "makes medical devices, diagnostics and lab equipment",
        ("Innovation that saves lives.", "Technology for better care.", "Precision in health."),
        ("medical devices", "diagnostics", "surgical robotics", "imaging", "life sciences tools",
         "patient monitoring"),
    ),
    Industry(
        "Machinery", (), "machinery maker", "builds machines, equipment and components",
        ("Built for the toughest jobs.", "Engineering that moves industry.", "Power at work."),
        ("industrial machinery", "construction equipment", "components", "electrical equipment",
         "services", "digital solutions"),
    ),
    Industry(
        "Entertainment", (), "entertainment company", "makes films, shows, music and games",
        ("Stories that move the world.", "Entertainment for everyone.", "Made to be watched."),
        ("film", "television", "streaming", "theme parks", "music", "games"),
        consumer=True,
    ),
    Industry(
        "Apparel & Fashion", (), "fashion company", "designs and sells clothes and luxury goods",
        ("Style that lasts.", "Crafted with care.", "Fashion for every day."),
        ("fashion", "leather goods", "luxury", "sportswear", "retail stores", "e-commerce"),
        consumer=True,
    ),
    Industry(
        "Tobacco", (), "tobacco company", "makes cigarettes and smoke-free products",
        ("A smoke-free future.", "Better alternatives.", "Innovating for adults."),
        ("cigarettes", "heated tobacco", "vapour products", "oral nicotine", "distribution",
         "regulatory science"),
        consumer=True,
    ),
)  # fmt: skip
INDUSTRIES = INDUSTRIES + LISTED_INDUSTRIES
BY_NAME = {industry.name: industry for industry in INDUSTRIES}
_BY_WORD = {word: industry for industry in INDUSTRIES for word in industry.words}
# Fields a brand name with no trade word in it is most often in.
BRAND_FIELDS = tuple(
    BY_NAME[name]
    for name in (
        "Computer Software", "Information Technology & Services", "Consumer Goods",
        "Financial Services", "Online Media", "Retail", "Industrial Automation",
        "Management Consulting", "Food & Beverages", "Telecommunications",
    )
)  # fmt: skip


def industry_of(words: tuple[str, ...]) -> Industry | None:
    """The field the name's words point to (the last trade word wins): ``("acme", "foods")``."""
    for word in reversed(words):
        found = _BY_WORD.get(word)
        if found is not None:
            return found
    return None
