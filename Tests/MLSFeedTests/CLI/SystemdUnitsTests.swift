import Foundation
import Testing

/// `deploy/systemd`: the units pass `systemd-analyze verify` with no warning (when systemd-analyze is installed).
@Suite(.ownThread) struct SystemdUnitsTests {
    static let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test func unitsVerifyClean() throws {
        guard let analyze = Self.analyze else {
            print("SystemdUnitsTests skipped: systemd-analyze is not installed (apt-get install systemd)")
            try Test.cancel("systemd-analyze is not installed (apt-get install systemd)")
        }
        let units = CLI.packageRoot.appendingPathComponent("deploy/systemd")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Instances of the templates, as systemd makes them; ExecStart points at the binary built here (verify
        // checks that it exists) instead of /usr/local/bin.
        let instances = [("mlsfeed@.service", "mlsfeed@sample.service"), ("mlsfeed@.timer", "mlsfeed@sample.timer"),
                         ("mlsfeed-alert@.service", "mlsfeed-alert@mlsfeed@sample.service.service")]
        for (template, instance) in instances {
            let text = try String(contentsOf: units.appendingPathComponent(template), encoding: .utf8)
            #expect(text.contains("/usr/local/bin/mlsfeed") == (template == "mlsfeed@.service"))
            try text.replacingOccurrences(of: "/usr/local/bin/mlsfeed", with: CLI.binary.path)
                .write(to: dir.appendingPathComponent(instance), atomically: true, encoding: .utf8)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: analyze)
        process.arguments = ["verify", "--man=no"] + instances.map { dir.appendingPathComponent($0.1).path }
        process.currentDirectoryURL = dir
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus != 0 && output.contains("Failed to") && output.contains("bus") {
            print("SystemdUnitsTests skipped: systemd-analyze cannot run here: \(output)")
            try Test.cancel("systemd-analyze cannot run in this sandbox")
        }
        #expect(process.terminationStatus == 0)
        #expect(output == "", "systemd-analyze verify: \(output)")
    }

    /// The service maps the exit codes (docs/running-nightly.md): only 0 and 143 are success, 4 is retried, 1 2 3 are
    /// not.
    @Test func exitCodesAreMappedAsDocumented() throws {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("deploy/systemd/mlsfeed@.service"),
                              encoding: .utf8)
        let settings = text.split(separator: "\n").filter { !$0.hasPrefix("#") && $0.contains("=") }
        #expect(settings.contains("Type=oneshot"))
        #expect(settings.contains("SuccessExitStatus=143"))
        #expect(settings.contains("Restart=on-failure"))
        #expect(settings.contains("RestartPreventExitStatus=1 2 3 130"))
        #expect(settings.contains("OnFailure=mlsfeed-alert@%n.service"))
        let timer = try String(contentsOf: CLI.packageRoot.appendingPathComponent("deploy/systemd/mlsfeed@.timer"),
                               encoding: .utf8)
        #expect(timer.contains("\nPersistent=true\n") && timer.contains("\nRandomizedDelaySec=30min\n"))
    }
}
