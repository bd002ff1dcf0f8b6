/// How a full or incremental load treats listings the input does not carry.
public enum LoadMode: String, Sendable, Hashable {
    /// Upsert only.
    case incremental
    /// A nightly dump: listings of the source not in it are withdrawn (never deleted).
    case full
}
