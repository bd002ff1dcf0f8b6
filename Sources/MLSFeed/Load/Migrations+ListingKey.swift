extension Migrations {
    /// Migration 15: `listings.listing_key`, the RESO ListingKey (the record's key at its source) beside the MLS
    /// number in `listing_id`. Nullable, no default: adding it rewrites nothing, and a row's content hash counts it
    /// only when it holds a value (`Entity.firstReleaseColumns`), so stored rows keep their hashes.
    static let listingKey = """
        ALTER TABLE listings ADD COLUMN listing_key text;
        """
}
