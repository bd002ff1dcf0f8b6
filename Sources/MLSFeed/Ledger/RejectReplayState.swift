/// Where the rejects of one run stand for `mlsfeed rejects replay`.
package struct RejectReplayState: Sendable, Equatable {
    /// The run's stored rejects.
    package var total: Int
    /// Those no run has replayed yet.
    package var pending: Int
    /// The runs that replayed the others, oldest first.
    package var replayedBy: [Int64]
    /// The sources and entities of the run's rejects (one each, for a run of one pipeline).
    package var sources: [String]
    package var entities: [String]
}
