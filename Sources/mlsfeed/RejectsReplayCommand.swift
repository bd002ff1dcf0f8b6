import Foundation
import MLSFeed
import Postgres

/// `mlsfeed rejects replay --run ID [--pipeline PATH]`: feeds the stored raw records of a run's rejects through the
/// pipeline's current mapping as a new incremental run (see `RejectReplay`).
enum RejectsReplayCommand {
    static func main(_ args: [String]) throws -> Int32 {
        let parsed = try Arguments(args, command: CommandHelp.rejects, variant: "replay")
        if let unexpected = parsed.positionals.first {
            throw UsageError(message: "unexpected argument \(unexpected)")
        }
        guard let runText = parsed["run"] else { throw UsageError(message: "replay needs --run ID") }
        let run = try RunsCommand.runID(runText, flag: "--run")
        let flag = try parsed.pipelineFile("pipeline")
        let context = try Context(configFlag: parsed["config"])
        let conninfo = try context.conninfo(flag: parsed["database"])
        let path: String
        if let flag {
            path = flag
        } else {
            // The run's own pipeline, by name (pipelines/NAME.yaml).
            let connection = try Connection(conninfo, options: context.project.timeouts)
            try ReadOnlyStandby.refuse(connection)
            guard let recorded = try Ledger(connection).run(id: run) else {
                throw NotFound(message: "no run \(run) in the ledger (never recorded, or pruned)")
            }
            path = try RunCommand.locatePipeline(recorded.pipeline)
        }
        let config = try PipelineConfig.load(path: path, project: context.project, environment: context.environment)
        let result = try RejectReplay(config: config, conninfo: conninfo, connection: context.project.timeouts)
            .replay(run: run)
        let load = result.load
        print("run \(result.runID): replayed \(result.replayed) \(result.replayed == 1 ? "reject" : "rejects") of run "
            + "\(run) through the current mapping of \(path)")
        print("  listings: inserted \(load.inserted), updated \(load.updated), unchanged \(load.unchanged), stale "
            + "\(load.stale); agents: inserted \(load.agentsInserted), updated \(load.agentsUpdated), unchanged "
            + "\(load.agentsUnchanged)")
        for entity in [Entity.office, .media, .openHouse] {
            guard let counts = load.rows[entity] else { continue }
            print("  \(entity.table): \(counts.summary)")
        }
        if result.rejectedAgain > 0 {
            print("  rejected again: \(result.rejectedAgain) (`mlsfeed rejects --run \(result.runID)`)")
        }
        print("  the rejects of run \(run) stay, marked replayed by run \(result.runID)")
        return 0
    }
}
