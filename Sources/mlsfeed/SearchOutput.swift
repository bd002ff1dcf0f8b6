import Foundation
import MLSFeed

/// How `mlsfeed search` prints rows: a table for people, JSON or CSV for programs (the SQL API's column names).
enum SearchOutput {
    enum Format: String {
        case table, json, csv
    }

    /// What a listing search returns beyond the common columns.
    struct Extras {
        var distance = false
        var cursor = false
        var payment = false
        /// `search listing`: the listing's photos, open houses to come and office.
        var detail = false
    }

    /// A value for JSON and CSV: text, a number (its JSON text) or null.
    enum Cell {
        case text(String)
        case number(String)
        /// JSON text (an array of objects): as it is in JSON, as text in CSV.
        case json(String)
        case null

        init(_ text: String?) { self = text.map(Cell.text) ?? .null }
        init(_ number: Decimal?) { self = number.map { Cell.number("\($0)") } ?? .null }
        init(_ number: Int?) { self = number.map { Cell.number(String($0)) } ?? .null }
        init(_ number: Double?) { self = number.map { Cell.number("\($0)") } ?? .null }
        init(_ date: Date?) { self = date.map { Cell.text($0.formatted(.iso8601)) } ?? .null }
    }

    /// `rows` in `format`; `width` is the terminal's (tables are fitted to it) or nil.
    static func listings(_ rows: [SearchListing], _ format: Format, extras: Extras, width: Int?) -> String {
        switch format {
        case .json: return json(rows.map { fields($0, extras) })
        case .csv: return csv(rows.map { fields($0, extras) }, header: fields(nil, extras).map(\.0))
        case .table:
            let multiSource = Set(rows.map(\.source)).count > 1
            var header = ["MLS#", "STATUS", "TYPE", "PRICE"]
            if extras.payment { header.append("PAYMENT/MO") }
            header += ["BD", "BA", "SQFT", "ADDRESS", "CITY", "ZIP", "LISTED", "AGENT", "PHONE"]
            if extras.distance { header.insert("MILES", at: 0) }
            if multiSource { header.insert("SOURCE", at: 0) }
            let body = rows.map { row -> [String] in
                var cells = [row.listingID, row.status ?? "", row.propertyType ?? "",
                             money(row.listPrice, cents: false)]
                if extras.payment { cells.append(money(row.monthlyPayment, cents: true)) }
                cells += [row.bedrooms.map(String.init) ?? "", baths(row),
                          row.livingArea.map { grouped("\($0)") } ?? "", address(row), row.city ?? "",
                          row.postalCode ?? "", row.listDate?.description ?? "",
                          [row.agentFirstName, row.agentLastName].compactMap { $0 }.joined(separator: " "),
                          row.agentMobilePhone ?? row.agentOfficePhone ?? ""]
                if extras.distance { cells.insert(row.distanceMiles.map { String(format: "%.2f", $0) } ?? "", at: 0) }
                if multiSource { cells.insert(row.source, at: 0) }
                return cells
            }
            return table(header: header, rows: body,
                         rightAligned: ["PRICE", "PAYMENT/MO", "BD", "BA", "SQFT", "MILES"],
                         shrinkable: ["ADDRESS", "AGENT", "CITY", "TYPE", "STATUS", "PHONE"],
                         dropOrder: ["PHONE", "LISTED", "AGENT", "SQFT", "ZIP", "TYPE", "BA", "STATUS", "SOURCE"],
                         width: width)
        }
    }

    /// Agents in `format`.
    static func agents(_ rows: [SearchAgent], _ format: Format, width: Int?) -> String {
        func fields(_ a: SearchAgent?) -> [(String, Cell)] {
            [("source", Cell(a?.source)), ("agent_mls_id", Cell(a?.agentID)), ("first_name", Cell(a?.firstName)),
             ("last_name", Cell(a?.lastName)), ("full_name", Cell(a?.fullName)), ("office_mls_id", Cell(a?.officeID)),
             ("office_name", Cell(a?.officeName)), ("office_phone", Cell(a?.officePhone)),
             ("mobile_phone", Cell(a?.mobilePhone)), ("email", Cell(a?.email))]
        }
        switch format {
        case .json: return json(rows.map { fields($0) })
        case .csv: return csv(rows.map { fields($0) }, header: fields(nil).map(\.0))
        case .table:
            let header = ["AGENT ID", "NAME", "OFFICE ID", "OFFICE", "OFFICE PHONE", "MOBILE", "EMAIL"]
            let body = rows.map { a in
                [a.agentID, a.fullName ?? "", a.officeID ?? "", a.officeName ?? "", a.officePhone ?? "",
                 a.mobilePhone ?? "", a.email ?? ""]
            }
            return table(header: header, rows: body, rightAligned: [], shrinkable: ["OFFICE", "NAME", "EMAIL"],
                         dropOrder: ["EMAIL", "MOBILE", "OFFICE ID", "OFFICE PHONE", "OFFICE"], width: width)
        }
    }

    /// The columns of the SQL API's `search.listing_row`, in its order, plus the monthly payment; the header's
    /// names when `row` is nil.
    private static func fields(_ row: SearchListing?, _ extras: Extras) -> [(String, Cell)] {
        var fields: [(String, Cell)] = [
            ("source", Cell(row?.source)), ("listing_id", Cell(row?.listingID)),
            ("standard_status", Cell(row?.status)), ("property_type", Cell(row?.propertyType)),
            ("list_price", Cell(row?.listPrice)), ("listing_contract_date", Cell(row?.listDate?.description)),
            ("bedrooms_total", Cell(row?.bedrooms)), ("bathrooms_full", Cell(row?.bathsFull)),
            ("bathrooms_half", Cell(row?.bathsHalf)), ("living_area", Cell(row?.livingArea)),
            ("year_built", Cell(row?.yearBuilt)), ("street_number", Cell(row?.streetNumber)),
            ("street_name", Cell(row?.streetName)), ("unit_number", Cell(row?.unitNumber)),
            ("city", Cell(row?.city)), ("state_or_province", Cell(row?.state)),
            ("postal_code", Cell(row?.postalCode)), ("county_or_parish", Cell(row?.county)),
            ("mls_area", Cell(row?.mlsArea)), ("latitude", Cell(row?.latitude)), ("longitude", Cell(row?.longitude)),
            ("public_remarks", Cell(row?.publicRemarks)), ("list_office_mls_id", Cell(row?.officeID)),
            ("list_office_name", Cell(row?.officeName)), ("list_agent_mls_id", Cell(row?.agentID)),
            ("agent_first_name", Cell(row?.agentFirstName)), ("agent_last_name", Cell(row?.agentLastName)),
            ("agent_mobile_phone", Cell(row?.agentMobilePhone)), ("agent_office_phone", Cell(row?.agentOfficePhone)),
            ("agent_email", Cell(row?.agentEmail)), ("modification_timestamp", Cell(row?.modified)),
            ("off_market_at", Cell(row?.offMarketAt)),
        ]
        if extras.distance { fields.append(("distance_miles", Cell(row?.distanceMiles))) }
        if extras.cursor { fields.append(("cursor", Cell(row?.cursor))) }
        if extras.payment { fields.append(("monthly_payment", Cell(row?.monthlyPayment))) }
        fields.append(("photo_url", Cell(row?.photoURL)))
        if extras.detail {
            fields += [("photos", row?.photosJSON.map(Cell.json) ?? .null),
                       ("open_houses", row?.openHousesJSON.map(Cell.json) ?? .null),
                       ("office_name", Cell(row?.officeRecordName)), ("office_phone", Cell(row?.officePhone))]
        }
        return fields
    }

    /// A JSON array of objects, one per line, keys in order.
    private static func json(_ rows: [[(String, Cell)]]) -> String {
        guard !rows.isEmpty else { return "[]\n" }
        let objects = rows.map { fields in
            "{" + fields.map { key, cell -> String in
                let value: String
                switch cell {
                case .text(let s): value = JSONText.string(s)
                case .number(let n), .json(let n): value = n
                case .null: value = "null"
                }
                return JSONText.string(key) + ":" + value
            }.joined(separator: ",") + "}"
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    /// RFC 4180: a header line, then one line per row; a field with a comma, quote or line break is quoted.
    private static func csv(_ rows: [[(String, Cell)]], header: [String]) -> String {
        func field(_ s: String) -> String {
            s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        }
        let lines = rows.map { fields in
            fields.map { _, cell -> String in
                switch cell {
                case .text(let s), .number(let s), .json(let s): return field(s)
                case .null: return ""
                }
            }.joined(separator: ",")
        }
        return ([header.joined(separator: ",")] + lines).map { $0 + "\r\n" }.joined()
    }

    /// Columns padded to their widest cell. When `width` is known, the `shrinkable` columns give up characters
    /// (widest first, cut with "…"), and if that is not enough the columns of `dropOrder` go, in that order,
    /// until every line fits.
    static func table(header: [String], rows: [[String]], rightAligned: Set<String>, shrinkable: Set<String>,
                      dropOrder: [String], width: Int?) -> String {
        var kept = Array(header.indices)
        var widths = header.indices.map { i in ([header[i]] + rows.map { $0[i] }).map(\.count).max() ?? 0 }
        if let width {
            let floor = header.indices.map { shrinkable.contains(header[$0]) ? max(header[$0].count, 6) : widths[$0] }
            var drop = dropOrder[...]
            while true {
                let total = { kept.map { widths[$0] }.reduce(2 * (kept.count - 1), +) }
                while total() > width,
                      let i = kept.filter({ widths[$0] > floor[$0] }).max(by: { widths[$0] < widths[$1] }) {
                    widths[i] -= 1
                }
                guard total() > width, let name = drop.popFirst() else { break }
                kept.removeAll { header[$0] == name }
            }
        }
        func line(_ cells: [String]) -> String {
            kept.map { i in
                var cell = cells[i]
                if cell.count > widths[i] { cell = String(cell.prefix(widths[i] - 1)) + "…" }
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return rightAligned.contains(header[i]) ? pad + cell : cell + pad
            }.joined(separator: "  ").replacingOccurrences(of: " +$", with: "", options: .regularExpression)
        }
        let rule = widths.map { String(repeating: "-", count: $0) }
        return ([line(header), line(rule)] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    /// `$549,000` (cents only when asked for or not zero).
    private static func money(_ value: Decimal?, cents: Bool) -> String {
        guard let value else { return "" }
        var text = "\(value)"
        if let dot = text.firstIndex(of: ".") {
            let fraction = text[text.index(after: dot)...]
            text = String(text[..<dot]) + "." + (fraction + "00").prefix(2)
        } else if cents {
            text += ".00"
        }
        if text.hasSuffix(".00") && !cents { text.removeLast(3) }
        return "$" + grouped(text)
    }

    /// Thousands separated by commas in the integer part of a plain decimal.
    private static func grouped(_ text: String) -> String {
        let negative = text.hasPrefix("-")
        let digits = negative ? String(text.dropFirst()) : text
        let integer = digits.prefix { $0 != "." }
        let rest = digits.dropFirst(integer.count)
        var out = ""
        for (i, c) in integer.enumerated() {
            if i > 0 && (integer.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (negative ? "-" : "") + out + rest
    }

    /// Full baths plus half baths as halves: `2`, `2.5`.
    private static func baths(_ row: SearchListing) -> String {
        guard row.bathsFull != nil || row.bathsHalf != nil else { return "" }
        let halves = 2 * (row.bathsFull ?? 0) + (row.bathsHalf ?? 0)
        return halves % 2 == 0 ? String(halves / 2) : "\(halves / 2).5"
    }

    /// `3891 University Ave #2`.
    private static func address(_ row: SearchListing) -> String {
        var parts = [row.streetNumber, row.streetName].compactMap { $0 }
        if let unit = row.unitNumber, !unit.isEmpty { parts.append("#" + unit) }
        return parts.joined(separator: " ")
    }
}
