import Foundation
import MLSFeed

/// `mlsfeed history LISTING_ID`: a listing as it stands, with its price and status changes, withdrawals and
/// returns and the runs that made them.
enum HistoryCommand {
    static func main(_ args: [String]) throws -> Int32 {
        let parsed = try Arguments(args, command: CommandHelp.history)
        let format = try OutputFormat(parsed["format"], allowed: [.table, .json])
        guard parsed.positionals.count == 1, let listingID = parsed.positionals.first else {
            throw UsageError(message: parsed.positionals.isEmpty ? "missing LISTING_ID" : "expected one LISTING_ID")
        }
        let context = try Context(configFlag: parsed["config"])
        let ledger = Ledger(try context.ledgerConnection(flag: parsed["database"]))
        let listings = try ledger.history(listingID: listingID, source: parsed["source"])
        guard !listings.isEmpty else {
            throw NotFound(message: "no listing \(listingID)" + (parsed["source"].map { " in source \($0)" } ?? ""))
        }
        if format == .json {
            print(JSONValue.object([("listing_id", .string(listingID)),
                                    ("sources", .array(listings.map(json)))]).text)
        } else {
            print(listings.map(text).joined(separator: "\n"), terminator: "")
        }
        return 0
    }

    static func json(_ listing: ListingHistory) -> JSONValue {
        .object([
            ("source", .string(listing.source)),
            ("standard_status", .string(listing.standardStatus)),
            ("list_price", .numeric(listing.listPrice)),
            ("modification_timestamp", .time(listing.modificationTimestamp)),
            ("off_market_at", .time(listing.offMarketAt)),
            ("first_seen_run", .int(listing.firstSeenRun)),
            ("last_changed_run", .int(listing.lastChangedRun)),
            ("changes", .array(listing.changes.map { change in
                .object([("run_id", .int(change.runID)), ("pipeline", .string(change.pipeline)),
                         ("recorded_at", .time(change.recordedAt)),
                         ("modification_timestamp", .time(change.modificationTimestamp)),
                         ("change", .string(change.change)),
                         ("old_price", .numeric(change.oldPrice)), ("new_price", .numeric(change.newPrice)),
                         ("old_status", .string(change.oldStatus)), ("new_status", .string(change.newStatus))])
            })),
        ])
    }

    /// One source's listing: a line for how it stands, then its changes as a table.
    static func text(_ listing: ListingHistory) -> String {
        var head = "listing \(listing.listingID), source \(listing.source): \(listing.standardStatus ?? "no status")"
        if let price = listing.listPrice { head += ", \(price)" }
        if let off = listing.offMarketAt { head += ", off the market since \(TimeText.local(off))" }
        head += "; first seen in run \(listing.firstSeenRun), last changed in run \(listing.lastChangedRun)"
        guard !listing.changes.isEmpty else { return head + "\n  no price or status change recorded\n" }
        var table = TextTable(["recorded", "run", "change", "price", "status", "modified"])
        for change in listing.changes {
            let run = String(change.runID) + (change.pipeline == nil ? " (pruned)" : "")
            table.append([TimeText.local(change.recordedAt), run, change.change,
                          transition(change.oldPrice, change.newPrice),
                          transition(change.oldStatus, change.newStatus),
                          TimeText.local(change.modificationTimestamp)])
        }
        return head + "\n" + table.text.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n"
    }

    /// `old → new`, or the one value when it did not change, `-` for none.
    private static func transition(_ old: String?, _ new: String?) -> String {
        old == new ? (new ?? "-") : "\(old ?? "-") → \(new ?? "-")"
    }
}
