import MLSFeed

/// The San Diego-ish market the generator draws from: places, streets, people, offices and remark phrases.
enum FixtureMarket {
    struct City {
        var name: String
        var county: String
        var zips: [String]
        var latitude: Double
        var longitude: Double
        var area: String
        var priceLevel: Int
        var district: String
    }

    static let cities: [City] = [
        City(name: "San Diego", county: "San Diego",
             zips: ["92101", "92103", "92104", "92105", "92107", "92109", "92110", "92115", "92116", "92117",
                    "92122", "92126", "92128", "92129", "92130"],
             latitude: 32.7157, longitude: -117.1611, area: "Metro San Diego", priceLevel: 850_000,
             district: "San Diego Unified"),
        City(name: "San Diego", county: "San Diego", zips: ["92103", "92104", "92116"], latitude: 32.7489,
             longitude: -117.1625, area: "Mission Hills / Hillcrest", priceLevel: 1_050_000,
             district: "San Diego Unified"),
        City(name: "La Jolla", county: "San Diego", zips: ["92037"], latitude: 32.8328, longitude: -117.2713,
             area: "La Jolla", priceLevel: 2_400_000, district: "San Diego Unified"),
        City(name: "Chula Vista", county: "San Diego", zips: ["91910", "91911", "91913", "91914", "91915"],
             latitude: 32.6401, longitude: -117.0842, area: "South Bay", priceLevel: 760_000,
             district: "Sweetwater Union"),
        City(name: "Oceanside", county: "San Diego", zips: ["92054", "92056", "92057"], latitude: 33.1959,
             longitude: -117.3795, area: "North County Coastal", priceLevel: 820_000, district: "Oceanside Unified"),
        City(name: "Escondido", county: "San Diego", zips: ["92025", "92026", "92027", "92029"],
             latitude: 33.1192, longitude: -117.0864, area: "North County Inland", priceLevel: 720_000,
             district: "Escondido Union"),
        City(name: "Carlsbad", county: "San Diego", zips: ["92008", "92009", "92010", "92011"],
             latitude: 33.1581, longitude: -117.3506, area: "North County Coastal", priceLevel: 1_450_000,
             district: "Carlsbad Unified"),
        City(name: "El Cajon", county: "San Diego", zips: ["92019", "92020", "92021"], latitude: 32.7948,
             longitude: -116.9625, area: "East County", priceLevel: 690_000, district: "Cajon Valley Union"),
        City(name: "Vista", county: "San Diego", zips: ["92081", "92083", "92084"], latitude: 33.2000,
             longitude: -117.2425, area: "North County Inland", priceLevel: 740_000, district: "Vista Unified"),
        City(name: "San Marcos", county: "San Diego", zips: ["92069", "92078"], latitude: 33.1434,
             longitude: -117.1661, area: "North County Inland", priceLevel: 890_000, district: "San Marcos Unified"),
        City(name: "Encinitas", county: "San Diego", zips: ["92024"], latitude: 33.0370, longitude: -117.2920,
             area: "North County Coastal", priceLevel: 1_700_000, district: "San Dieguito Union"),
        City(name: "National City", county: "San Diego", zips: ["91950"], latitude: 32.6781, longitude: -117.0992,
             area: "South Bay", priceLevel: 610_000, district: "Sweetwater Union"),
        City(name: "La Mesa", county: "San Diego", zips: ["91941", "91942"], latitude: 32.7678,
             longitude: -117.0231, area: "East County", priceLevel: 830_000, district: "La Mesa-Spring Valley"),
        City(name: "Santee", county: "San Diego", zips: ["92071"], latitude: 32.8384, longitude: -116.9739,
             area: "East County", priceLevel: 720_000, district: "Santee"),
        City(name: "Poway", county: "San Diego", zips: ["92064"], latitude: 32.9628, longitude: -117.0359,
             area: "North County Inland", priceLevel: 1_150_000, district: "Poway Unified"),
        City(name: "Coronado", county: "San Diego", zips: ["92118"], latitude: 32.6859, longitude: -117.1831,
             area: "Coronado", priceLevel: 2_600_000, district: "Coronado Unified"),
        City(name: "Imperial Beach", county: "San Diego", zips: ["91932"], latitude: 32.5839,
             longitude: -117.1131, area: "South Bay", priceLevel: 780_000, district: "South Bay Union"),
        City(name: "Del Mar", county: "San Diego", zips: ["92014"], latitude: 32.9595, longitude: -117.2653,
             area: "North County Coastal", priceLevel: 3_100_000, district: "Del Mar Union"),
        City(name: "Spring Valley", county: "San Diego", zips: ["91977", "91978"], latitude: 32.7448,
             longitude: -116.9989, area: "East County", priceLevel: 640_000, district: "La Mesa-Spring Valley"),
        City(name: "Ramona", county: "San Diego", zips: ["92065"], latitude: 33.0417, longitude: -116.8681,
             area: "East County Rural", priceLevel: 700_000, district: "Ramona Unified"),
        City(name: "Fallbrook", county: "San Diego", zips: ["92028"], latitude: 33.3764, longitude: -117.2511,
             area: "North County Inland", priceLevel: 880_000, district: "Fallbrook Union"),
        City(name: "Julian", county: "San Diego", zips: ["92036"], latitude: 33.0786, longitude: -116.6020,
             area: "East County Rural", priceLevel: 520_000, district: "Julian Union"),
        City(name: "Borrego Springs", county: "San Diego", zips: ["92004"], latitude: 33.2559,
             longitude: -116.3750, area: "Desert", priceLevel: 390_000, district: "Borrego Springs Unified"),
        City(name: "Temecula", county: "Riverside", zips: ["92590", "92591", "92592"], latitude: 33.4936,
             longitude: -117.1484, area: "Temecula Valley", priceLevel: 760_000, district: "Temecula Valley Unified"),
        City(name: "Murrieta", county: "Riverside", zips: ["92562", "92563"], latitude: 33.5539,
             longitude: -117.2139, area: "Temecula Valley", priceLevel: 690_000, district: "Murrieta Valley Unified"),
        City(name: "San Clemente", county: "Orange", zips: ["92672", "92673"], latitude: 33.4270,
             longitude: -117.6120, area: "South Orange County", priceLevel: 1_600_000,
             district: "Capistrano Unified"),
    ]

    static let streets: [String] = [
        "Adams Ave", "El Cajon Blvd", "Camino del Mar", "Via de la Valle", "Avenida Encinas", "Calle Señorita",
        "University Ave", "Park Blvd", "Sunset Cliffs Blvd", "Rancho Bernardo Rd", "Mission Gorge Rd", "Garnet Ave",
        "Balboa Ave", "Genesee Ave", "Clairemont Mesa Blvd", "Palomar Airport Rd", "La Jolla Blvd", "Torrey Pines Rd",
        "Telegraph Canyon Rd", "Otay Lakes Rd", "Bonita Rd", "Fort Stockton Dr", "Goldfinch St", "Washington St",
        "Juniper St", "Laurel St", "Upas St", "Kettner Blvd", "India St", "Fern St", "30th St", "Felton St",
        "Cañon St", "Via Cañada", "Calle Cristóbal", "Avenida de la Playa", "Old Grove Rd", "Valley Pkwy",
        "Grand Ave", "Broadway", "Orange Ave", "Silverado St", "Prospect St", "Coast Blvd S", "Neptune Ave",
        "Hermes Ave", "Santa Fe Dr", "Mission Ave", "Vista Way", "Twin Oaks Valley Rd", "Jamacha Rd",
        "Fletcher Pkwy", "Lake Murray Blvd", "Cuyamaca St", "Pomerado Rd", "Espola Rd", "Main St",
        "Pala Mesa Dr", "Margarita Rd", "Los Alamos Rd", "Avenida Pico", "Calle Frontera",
    ]

    static let firstNames: [String] = [
        "John", "Maria", "José", "Jennifer", "Michael", "Linda", "David", "Patricia", "Robert", "Sofía",
        "James", "Karen", "Daniel", "Nancy", "Christopher", "Lisa", "Matthew", "Betty", "Anthony", "Zoë",
        "Mark", "Sandra", "Steven", "Ashley", "Andrew", "Kimberly", "Joshua", "Emily", "Kevin", "Donna",
        "Brian", "Michelle", "Ryan", "Carol", "Jason", "Amanda", "Eric", "Melissa", "Jacob", "Deborah",
        "Nguyen", "Mai", "Wei", "Priya", "Rahul", "Chloé", "André", "Renée", "Iñigo", "Ana", "Luis", "Carmen",
        "Héctor", "Lucía", "Ahmed", "Fatima", "Kenji", "Yuki", "Olga", "Siobhán",
    ]

    static let lastNames: [String] = [
        "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernández", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
        "Lee", "Pérez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
        "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green",
        "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Peña",
        "Núñez", "O'Brien", "D'Angelo", "McAllister", "Van der Berg", "Kowalski", "Tanaka", "Patel", "Müller",
    ]

    static let offices: [String] = [
        "Coldwell Banker West", "Pacific Sotheby's International Realty", "Big Block Realty, Inc.",
        "eXp Realty of California, Inc.", "Compass", "Willis Allen Real Estate",
        "Berkshire Hathaway HomeServices California Properties", "Redfin Corporation", "Keller Williams La Jolla",
        "Coastal Premier Properties", "Real Broker", "Realty ONE Group Pacific", "HomeSmart Realty West",
        "Coldwell Banker Realty", "Barry Estates, Inc.", "Harcourts Ranch & Coast", "Allison James Estates & Homes",
        "Century 21 Award", "RE/MAX Associates", "Windermere Homes & Estates", "First Team Real Estate",
        "Pacific Coast Realty & Mgmt", "Palisade Realty Inc", "Reside Real Estate", "Vylla Home",
        "La Costa Realty Group", "Hillcrest Homes & Loans", "Ocean Beach Realty", "North County Brokers",
        "Sun & Surf Properties", "Mission Valley Realty", "Point Loma Properties", "Chula Vista Home Finders",
        "East County Estates", "Del Mar Realty Associates", "Ramona Ranch & Land", "Temecula Wine Country Homes",
        "Fallbrook Avocado Properties", "Desert Oasis Realty", "Julian Mountain Realty",
    ]

    static let areaCodes: [String] = ["619", "858", "760", "442", "951"]

    static let phrases: [String] = [
        "Welcome home to this light-filled retreat in one of the most walkable neighborhoods in town.",
        "Completely remodeled in 2021 with permits — new electrical, plumbing & roof.",
        "The chef's kitchen features quartz counters, a 6-burner range and a walk-in pantry.",
        "Enjoy sunset ocean views from the \"sky deck\" 🌅 with built-in BBQ and fire pit.",
        "Close to Balboa Park, the Zoo & downtown; freeway access in < 5 minutes.",
        "Original 1950s charm: coved ceilings, hardwood floors and a brick fireplace.",
        "Situated on a quiet cul-de-sac with a huge flat backyard — room for a pool, ADU or garden.",
        "Owned solar (no lease!) keeps SDG&E bills low year-round ☀️.",
        "HOA includes water, trash, earthquake insurance and the resort-style pool & spa.",
        "Primary suite with dual vanities, soaking tub and a custom walk-in closet.",
        "Café, bakery and the Saturday farmers' market are just around the corner.",
        "Rare single-level home in the award-winning school district.",
        "Seller is motivated — bring all offers! Terms: cash, conventional, VA, FHA.",
        "Detached 2-car garage with alley access plus RV/boat parking (gated).",
        "Canyon views and total privacy; the backyard backs to open space with hiking trails 🥾.",
        "Newer dual-pane windows, central A/C, tankless water heater & EV charger.",
        "Investor alert: long-term tenants in place, rents below market (see \"rent roll\").",
        "Spanish-style hacienda with red tile roof, courtyard fountain and mature citrus trees 🍋.",
        "Walk to the beach — 3 blocks to the sand! Surf's up 🏄.",
        "Turn-key condo with in-unit laundry, 2 assigned parking spaces and extra storage.",
        "Ideal for the 1st-time buyer or downsizer; low HOA <$300/mo.",
        "Gorgeous remodel by a local designer: wide-plank oak floors, white oak cabinetry & brass accents.",
        "Ranch property on 2.5 acres with horse facilities, barn and corrals — zoned A70.",
        "Buildable lot with approved plans & permits; utilities at street. Views of the Coronado bridge.",
        "Mid-century modern gem by a noted architect: post-and-beam, walls of glass and an atrium.",
        "Tropical landscaping with palms, bird of paradise and a koi pond; drip irrigation on timers.",
        "Brand-new roof (2024), fresh paint inside & out, and new LVP flooring throughout.",
        "Located near UCSD, Scripps and the biotech corridor; easy commute to Sorrento Valley.",
        "Multi-generational living: casita with its own entrance, kitchenette and ¾ bath.",
        "Señora Peña's beloved garden — 40 years of care — conveys with the home.",
        "The open-concept great room flows to a covered patio through 12' sliding doors.",
        "Please note: square footage per assessor; buyer to verify. Sold \"as-is\".",
        "Short sale subject to lender approval; buyer pays for termite & any repairs.",
        "Vaulted ceilings, skylights and clerestory windows bathe the home in natural light.",
        "Quartz, stainless & designer tile — nothing to do but move in and enjoy 🏡.",
        "Gated community with tennis/pickleball courts, clubhouse and 24-hr security.",
        "Peek-a-boo bay views from the primary bedroom; Navy flyovers at Miramar are rare.",
        "Owner's favorite spot: the rooftop deck at dusk — downtown lights & fireworks on the 4th.",
        "Fully permitted ADU (1 bd/1 ba) rents for $2,400/mo — great mortgage helper.",
        "Crème-colored stucco, new garage door and a xeriscaped front yard — très chic.",
    ]

    static let privateNotes: [String] = [
        "Call LA for gate code & showing times.", "Tenant occupied; 24-hr notice required <please>.",
        "Seller prefers Chicago Title & Escrow of the Pacific.", "Offers due Monday 5pm; no escalation clauses.",
        "Dog on premises — do not let out!", "Alarm code in Supra box; lock both doors.",
        "Buyer to verify permits & square footage.", "Multiple offers received; highest & best by Friday.",
        "Use ShowingTime only. No drive-bys, please.", "Seller needs 60-day rent back.",
        "Variable commission: 2% if LA procures buyer.", "Probate sale — court confirmation required.",
    ]

    static let showing: [String] = [
        "Call listing agent", "Lockbox — Supra, front door", "Go direct", "Appointment only",
        "ShowingTime", "Call LA; tenant occupied", "Vacant – go & show", "24-hour notice",
    ]

    static let ownerNames: [String] = [
        "Of Record", "Smith Family Trust", "John & Mary Jones", "José Núñez", "Peña Living Trust",
        "O'Brien Revocable Trust", "Pacific Holdings LLC", "Estate of R. García", "Withheld", "Müller & Söhne LLC",
    ]

    static let pools = ["Yes", "No", "In Ground", "Community", "Heated, Saltwater", "None", ""]
    static let views = ["Ocean", "Bay", "Canyon", "Mountain", "City Lights", "Panoramic", "Golf Course", "None", ""]
    static let roofs = ["Tile", "Composition", "Spanish Tile", "Flat", "Metal", "Shingle", "Concrete"]
    static let heatings = ["Forced Air", "Natural Gas", "Wall Furnace", "Radiant", "Heat Pump", "Fireplace(s)", "None"]
    static let coolings = ["Central Air", "Wall/Window Unit(s)", "Evaporative", "Ductless Mini-Split", "None"]
    static let zonings = ["R-1", "R1-5000", "RS-1-7", "RM-3-9", "A70", "RR", "MF", "CC-3-4"]
    static let laundries = [
        "In Garage", "Inside", "Individual Room", "Community Facility", "Gas & Electric Dryer Hookup",
    ]
    static let floorings = ["Hardwood", "Laminate", "Tile", "Carpet", "Vinyl", "Wood, Tile", "Carpet, Tile"]
    static let appliances = [
        "Dishwasher", "Disposal", "Microwave", "Range/Oven", "Refrigerator", "Washer", "Dryer", "Wine Cooler",
    ]
    static let exteriors = ["Stucco", "Wood Siding", "Brick", "Stone", "Vinyl Siding", "Fiber Cement"]
    static let sewers = ["Public Sewer", "Septic", "Sewer Connected"]
    static let waters = ["Public", "Well", "District/Public"]
    static let constructions = ["Frame", "Block", "Concrete", "Steel", "Stucco & Frame"]
    static let styles = [
        "Ranch", "Spanish", "Craftsman", "Contemporary", "Mid-Century Modern", "Mediterranean", "Cape Cod",
        "Traditional", "Cottage",
    ]
    static let lotDescriptions = [
        "Cul-De-Sac", "Corner Lot", "Level", "Sloped", "Canyon Rim", "Flag Lot", "Landscaped", "Sprinklers Timer",
    ]
    static let listingTerms = ["Cash, Conventional", "Cash, Conventional, FHA, VA", "Cash", "1031 Exchange", "Submit"]
    static let occupancies = ["Owner", "Tenant", "Vacant", "Seller Rent Back"]
    static let hoaFrequencies = ["Monthly", "Quarterly", "Annually"]
    static let schools = [
        "Grant K-8", "Torrey Pines", "La Jolla High", "Bonita Vista High", "El Camino High", "Mt. Carmel",
        "Rancho Bernardo", "Point Loma High", "Hoover High", "Patrick Henry", "Canyon Crest Academy", "Sage Creek",
    ]
    static let subdivisions = [
        "Mission Hills", "Kensington", "Talmadge", "Bird Rock", "Rancho Peñasquitos", "Eastlake", "La Costa",
        "Olivenhain", "Scripps Ranch", "Carmel Valley", "Sabre Springs", "4S Ranch", "Otay Ranch", "Aviara",
    ]
}
