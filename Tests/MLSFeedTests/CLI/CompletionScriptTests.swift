import Foundation
import Testing

/// `mlsfeed completion bash|zsh`: the scripts complete commands, variants, each variant's options, fixed values and
/// pipeline files, as the help describes them.
@Suite struct CompletionScriptTests {
    /// What bash's `_mlsfeed` offers for the words typed so far (the last one being completed), run in the
    /// repository (its `pipelines/`).
    static func bash(_ words: [String]) throws -> [String] {
        let script = try CLI.run(["completion", "bash"])
        #expect(script.status == 0)
        let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let program = script.stdout + """
            COMP_WORDS=(mlsfeed \(quoted))
            COMP_CWORD=\(words.count)
            _mlsfeed
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try CLI.run(program: URL(fileURLWithPath: "/bin/bash"), ["--norc", "--noprofile", "-c", program])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init).sorted()
    }

    @Test(arguments: [
        ([""], ["--help", "--version", "bench-parse", "completion", "db", "doctor", "fixtures", "help", "history",
                "man", "mapping", "plan", "prune", "rejects", "run", "runs", "search", "sweep", "validate"]),
        (["ru"], ["run", "runs"]),
        (["run", "--mo"], ["--mode"]),
        (["run", "--mode", ""], ["full", "incremental"]),
        (["run", "--mode", "full", "samp"], ["sample"]),
        (["run", "pipelines/syn"], ["pipelines/syndication.yaml"]),
        (["run", "sample", "pipelines/syn"], ["pipelines/syndication.yaml"]),
        (["plan", "sample", "pipelines/syn"], []),
        (["search", ""], ["agent", "detailed", "mls", "near", "quick"]),
        (["search", "agent", "--"], ["--config", "--database", "--format", "--help", "--limit", "--name", "--office"]),
        (["search", "near", "--mi"], ["--miles", "--min-price", "--min-sqft"]),
        (["search", "detailed", "--sort", ""], ["-price", "beds", "newest", "price"]),
        (["rejects", ""], ["replay"]),
        (["rejects", "--"], ["--config", "--database", "--format", "--help", "--last", "--name", "--reason", "--run"]),
        (["rejects", "replay", "--"], ["--config", "--database", "--help", "--pipeline", "--run"]),
        (["rejects", "replay", "--pipeline", "pipelines/reso-"], ["pipelines/reso-media.yaml",
                                                                  "pipelines/reso-member.yaml",
                                                                  "pipelines/reso-office.yaml",
                                                                  "pipelines/reso-open-house.yaml",
                                                                  "pipelines/reso-web-api.yaml"]),
        (["bench-parse", "f.xml", "--input-format", ""], ["reso-json", "rets-compact", "triples", "xml"]),
        (["db", ""], ["migrate", "start", "status", "stop", "url"]),
        (["fixtures", "generate", "--out"], ["--output"]),
        (["mapping", "init", "--"], ["--class", "--force", "--from-metadata", "--help", "--lookups", "--output",
                                     "--resource"]),
        (["completion", ""], ["bash", "zsh"]),
        (["help", "bench"], ["bench-parse"]),
    ])
    func bashCompletes(words: [String], expected: [String]) throws {
        #expect(try Self.bash(words) == expected)
    }

    /// The zsh script parses, and for each command line calls `_arguments` with the options of the variant typed
    /// (zsh's completion functions stand in as recorders).
    @Test(arguments: [
        ("mlsfeed ", "_describe -t commands mlsfeed command commands"),
        ("mlsfeed search ", "_values variant mls quick detailed near agent"),
        ("mlsfeed db ", "_values variant start stop status url migrate"),
        ("mlsfeed rejects replay --", "_arguments -s|--run=[the run whose rejects to list, or to replay]:ID: |"
            + "--pipeline=[replay\\: the pipeline file whose mapping to use (default\\: pipelines/NAME.yaml of the "
            + "run's pipeline)]:PATH:_files -g \"*.(yaml|yml)\"|"),
        ("mlsfeed run --mode ", "|--mode=[override the pipeline's load mode]:full|incremental:(full incremental)|"),
        ("mlsfeed run --mode ", "|*:PIPELINE:_mlsfeed_pipelines"),
        ("mlsfeed search agent --", "_arguments -s|--name=[agent\\: the start"),
    ])
    func zshCallsArgumentsForTheVariantTyped(line: String, expected: String) throws {
        let script = try CLI.run(["completion", "zsh"])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("_mlsfeed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try script.stdout.write(to: file, atomically: true, encoding: .utf8)
        let syntax = try CLI.run(program: URL(fileURLWithPath: "/usr/bin/zsh"), ["-n", file.path])
        #expect(syntax.status == 0, "\(syntax.stderr)")
        let program = """
            _arguments() { print -r -- "_arguments ${(j:|:)@}" }
            _describe() { print -r -- "_describe $*" }
            _values() { print -r -- "_values $*" }
            words=("${(@s: :)1}")
            CURRENT=${#words}
            source \(file.path)
            """
        let result = try CLI.run(program: URL(fileURLWithPath: "/usr/bin/zsh"), ["-f", "-c", program, "zsh", line])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(expected), "\(result.stdout)")
    }
}
