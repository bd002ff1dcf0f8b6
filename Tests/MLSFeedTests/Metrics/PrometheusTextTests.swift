import Foundation
import Testing
@testable import MLSFeed

/// The metrics file's text: exact lines, escaped labels, a last success read back, units added up.
@Suite struct PrometheusTextTests {
    static let end = Date(timeIntervalSince1970: 1_796_087_228.25)

    static func summary(_ status: RunSummary.Status, read: Int, inserted: Int = 0, seconds: Double,
                        runID: Int64) -> RunSummary {
        var summary = RunSummary(pipeline: "sample", source: "sdmls", mode: "full", dryRun: false)
        summary.status = status
        summary.runID = runID
        summary.read = read
        summary.rejected = 1
        summary.seconds = seconds
        summary.load.inserted = inserted
        summary.load.unchanged = read - inserted - 1
        summary.load.agentsInserted = 2
        if status == .failed { summary.failure = .refused }
        return summary
    }

    @Test func aSucceededRunRendersEveryFamilyOnce() {
        let metrics = RunMetrics.of([Self.summary(.succeeded, read: 303, inserted: 296, seconds: 0.5, runID: 7)],
                                    finishedAt: Self.end)
        let text = PrometheusText.render(metrics)
        let samples = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(samples == [
            #"mlsfeed_last_run_status{pipeline="sample",source="sdmls",status="succeeded"} 1"#,
            #"mlsfeed_last_run_status{pipeline="sample",source="sdmls",status="unchanged"} 0"#,
            #"mlsfeed_last_run_status{pipeline="sample",source="sdmls",status="failed"} 0"#,
            #"mlsfeed_last_run_status{pipeline="sample",source="sdmls",status="interrupted"} 0"#,
            #"mlsfeed_last_run_failure{pipeline="sample",source="sdmls",failure="input"} 0"#,
            #"mlsfeed_last_run_failure{pipeline="sample",source="sdmls",failure="configuration"} 0"#,
            #"mlsfeed_last_run_failure{pipeline="sample",source="sdmls",failure="refused"} 0"#,
            #"mlsfeed_last_run_failure{pipeline="sample",source="sdmls",failure="unavailable"} 0"#,
            #"mlsfeed_last_run_failure{pipeline="sample",source="sdmls",failure="interrupted"} 0"#,
            #"mlsfeed_last_run_id{pipeline="sample",source="sdmls"} 7"#,
            #"mlsfeed_last_run_timestamp_seconds{pipeline="sample",source="sdmls"} 1796087228.250"#,
            #"mlsfeed_last_run_duration_seconds{pipeline="sample",source="sdmls"} 0.500"#,
            #"mlsfeed_last_success_timestamp_seconds{pipeline="sample",source="sdmls"} 1796087228.250"#,
            #"mlsfeed_last_run_records{pipeline="sample",source="sdmls",outcome="read"} 303"#,
            #"mlsfeed_last_run_records{pipeline="sample",source="sdmls",outcome="rejected"} 1"#,
            #"mlsfeed_last_run_records{pipeline="sample",source="sdmls",outcome="inserted"} 296"#,
            #"mlsfeed_last_run_records{pipeline="sample",source="sdmls",outcome="updated"} 0"#,
            #"mlsfeed_last_run_records{pipeline="sample",source="sdmls",outcome="unchanged"} 6"#,
            #"mlsfeed_last_run_records{pipeline="sample",source="sdmls",outcome="stale"} 0"#,
            #"mlsfeed_last_run_records{pipeline="sample",source="sdmls",outcome="withdrawn"} 0"#,
            #"mlsfeed_last_run_agents{pipeline="sample",source="sdmls",outcome="inserted"} 2"#,
            #"mlsfeed_last_run_agents{pipeline="sample",source="sdmls",outcome="updated"} 0"#,
            #"mlsfeed_last_run_agents{pipeline="sample",source="sdmls",outcome="unchanged"} 0"#,
        ])
        let families = text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }
        #expect(families.count == 8 && families.allSatisfy { $0.hasSuffix(" gauge") })
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("# HELP ") }.count == 8)
    }

    /// A unit that failed after one that succeeded: the invocation failed, its counts add up, and it still
    /// succeeded once.
    @Test func unitsAddUpAndTheLastOneSaysHowItEnded() throws {
        let metrics = RunMetrics.of([Self.summary(.succeeded, read: 10, inserted: 4, seconds: 1, runID: 1),
                                     Self.summary(.failed, read: 5, seconds: 2.5, runID: 2)], finishedAt: Self.end)
        let only = try #require(metrics.first)
        #expect(metrics.count == 1)
        #expect(only.status == .failed && only.failure == .refused && only.runID == 2)
        #expect(only.seconds == 3.5 && only.records["read"] == 15 && only.records["inserted"] == 4)
        #expect(only.records["unchanged"] == 5 + 4 && only.agents["inserted"] == 4)
        #expect(only.lastSuccess == Self.end)
        let failedAlone = RunMetrics.of([Self.summary(.failed, read: 5, seconds: 2.5, runID: 2)], finishedAt: Self.end)
        #expect(failedAlone.first?.lastSuccess == nil)
    }

    /// A run that never reached the ledger: no run id, and no last success unless the caller knows one.
    @Test func aRunThatNeverStartedHasNoIdAndKeepsAKnownLastSuccess() {
        var metrics = RunMetrics(pipeline: "sample", source: "sdmls", failure: .unavailable, finishedAt: Self.end)
        #expect(!PrometheusText.render([metrics]).contains("mlsfeed_last_run_id"))
        #expect(!PrometheusText.render([metrics]).contains("mlsfeed_last_success_timestamp_seconds{"))
        #expect(PrometheusText.render([metrics]).contains(
            #"mlsfeed_last_run_failure{pipeline="sample",source="sdmls",failure="unavailable"} 1"#))
        metrics.lastSuccess = Date(timeIntervalSince1970: 1_700_000_000.5)
        let text = PrometheusText.render([metrics])
        #expect(PrometheusText.lastSuccess(in: text, pipeline: "sample", source: "sdmls")?.timeIntervalSince1970
            == 1_700_000_000.5)
        #expect(PrometheusText.lastSuccess(in: text, pipeline: "sample", source: "crmls") == nil)
    }

    @Test func labelValuesAreEscaped() {
        var metrics = RunMetrics(pipeline: "a\"b\\c\nd", source: "s", failure: .input, finishedAt: Self.end)
        metrics.lastSuccess = Self.end
        let text = PrometheusText.render([metrics])
        #expect(text.contains(#"mlsfeed_last_run_status{pipeline="a\"b\\c\nd",source="s",status="failed"} 1"#))
        #expect(PrometheusText.lastSuccess(in: text, pipeline: "a\"b\\c\nd", source: "s") == Self.end)
    }
}
