import Testing
@testable import MLSFeed

/// `JobsTotal`: the total line of a several-pipeline run and its exit code, from the pipelines' outcomes.
@Suite struct JobsTotalTests {
    /// A pipeline that ran one unit with `read` records, inserting `inserted`, and ended with `code`.
    static func outcome(_ name: String, code: Int32, read: Int = 10, inserted: Int = 8, error: String? = nil)
        -> PipelineOutcome {
        var summary = RunSummary(pipeline: name, source: name, mode: "full", dryRun: false)
        summary.read = read
        summary.rejected = read - inserted
        summary.load.inserted = inserted
        if code != 0 {
            summary.status = code >= 130 ? .interrupted : .failed
            summary.error = error
        }
        return PipelineOutcome(pipeline: name, source: name, summaries: [summary], exitCode: code)
    }

    @Test(arguments: [
        ([], 0),
        ([0, 0], 0),
        ([0, 4], 4),
        ([4, 3], 3),
        ([3, 1, 4], 1),
        ([1, 2, 4], 2),
        ([2, 130, 0], 130),
        ([4, 143], 143),
    ] as [([Int32], Int32)])
    func theWorstCodeWins(codes: [Int32], worst: Int32) {
        #expect(JobsTotal.worst(codes) == worst)
        #expect(JobsTotal.worst(codes.reversed()) == worst)
    }

    @Test func theTotalLineCountsEveryPipelineAndNamesTheFailures() {
        let busy = "error: source busy (run 12 of pipeline sdmls-hourly, started at 2026-12-01T02:00:03Z)"
        let total = JobsTotal(outcomes: [Self.outcome("a", code: 0), Self.outcome("b", code: 4, read: 0, inserted: 0,
                                                                                   error: busy),
                                         Self.outcome("c", code: 0, read: 5, inserted: 5)], seconds: 3.456)
        #expect(total.exitCode == 4)
        #expect(total.text == "mlsfeed: 3 pipelines: 2 succeeded, 1 failed (b: exit 4, source busy (run 12 of "
            + "pipeline sdmls-hourly, started at 2026-12-01T02:00:03Z)); read 15, rejected 2, duplicates 0; inserted "
            + "13, updated 0, unchanged 0, stale 0, withdrawn 0; 3.46 s\n")
        #expect(total.json == "{\"pipelines\":3,\"succeeded\":2,\"failed\":1,\"interrupted\":0,\"not_started\":[],"
            + "\"exit_code\":4,\"read\":15,\"rejected\":2,\"duplicates\":0,\"inserted\":13,\"updated\":0,"
            + "\"unchanged\":0,\"stale\":0,\"withdrawn\":0,\"seconds\":3.456,\"failures\":[{\"pipeline\":\"b\","
            + "\"source\":\"b\",\"exit_code\":4,\"error\":\"source busy (run 12 of pipeline sdmls-hourly, started at "
            + "2026-12-01T02:00:03Z)\"}]}\n")
    }

    @Test func aStopThatLeftPipelinesNotStartedExitsWithTheSignalsCode() {
        let total = JobsTotal(outcomes: [Self.outcome("a", code: 0), Self.outcome("b", code: 130)],
                              notStarted: ["c", "d"], signalCode: 130, seconds: 1)
        #expect(total.exitCode == 130)
        #expect(total.text.hasPrefix("mlsfeed: 4 pipelines: 1 succeeded, 1 interrupted, 2 not started (c, d); "))
        // A signal that came once every pipeline had ended changes nothing.
        let late = JobsTotal(outcomes: [Self.outcome("a", code: 0)], signalCode: 143, seconds: 1)
        #expect(late.exitCode == 0)
        #expect(late.text.hasPrefix("mlsfeed: 1 pipeline: 1 succeeded; "))
    }

    /// A failure's error is its first line, without `error: `; a multi-line database error keeps only that.
    @Test func aFailuresErrorIsItsFirstLine() {
        let outcome = Self.outcome("a", code: 1, error: "error: database: numeric field overflow\nDETAIL: x")
        #expect(outcome.error == "database: numeric field overflow")
        #expect(outcome.kind == .failed)
        #expect(Self.outcome("b", code: 0).error == nil)
    }
}
