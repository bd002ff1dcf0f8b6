import Testing
@testable import MLSFeed

@Suite struct CompletenessTests {
    typealias Part = Completeness.Part

    @Test(arguments: [
        // One reply.
        ([Part(name: "a", records: 120, declaredCount: 160, maxRows: true, truncated: true)],
         ["MAXROWS", "RETS 20208", "COUNT 160 > 120 rows read"]),
        ([Part(name: "a", records: 160, declaredCount: 160)], []),
        ([Part(name: "a", records: 161, declaredCount: 160)], []),
        ([Part(name: "a", records: 5)], []),
        // Files split by hand, each counting itself: the cut one is found.
        ([Part(name: "1", records: 100, declaredCount: 100), Part(name: "2", records: 60, declaredCount: 100)],
         ["COUNT 200 > 160 rows read"]),
        ([Part(name: "1", records: 100, declaredCount: 100), Part(name: "2", records: 100, declaredCount: 100)], []),
        // Offset-paged replies, each repeating the query's total.
        ([Part(name: "1", records: 100, declaredCount: 250), Part(name: "2", records: 100, declaredCount: 250),
          Part(name: "3", records: 50, declaredCount: 250)], []),
        ([Part(name: "1", records: 100, declaredCount: 300), Part(name: "2", records: 100, declaredCount: 300),
          Part(name: "3", records: 50, declaredCount: 300)], ["COUNT 900 > 250 rows read"]),
        // Parts name themselves in a multi-part dump.
        ([Part(name: "1.xml", records: 10), Part(name: "2.xml", records: 10, maxRows: true)],
         ["MAXROWS in 2.xml"]),
    ])
    func countsAndTrailers(parts: [Part], reasons: [String]) {
        #expect(Completeness(parts: parts).reasons == reasons)
    }

    @Test func pagingStoppedAtItsLimitIsIncomplete() {
        let completeness = Completeness(parts: [Part(name: "p1", records: 10)], stoppedAtPages: 1000)
        #expect(!completeness.isComplete)
        #expect(completeness.summary == "paging stopped at max_pages (1000 pages)")
    }
}
