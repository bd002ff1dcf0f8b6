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

    @Test(arguments: [
        // The pages of one paged input are one part: the first page's count against every page's records.
        ([Part(name: "p1", records: 2, declaredCount: 10), Part(name: "p2", records: 2, declaredCount: 10,
                                                                  laterPage: true),
          Part(name: "p3", records: 2, declaredCount: 10, laterPage: true)], ["COUNT 10 > 6 rows read"]),
        ([Part(name: "p1", records: 5, declaredCount: 10), Part(name: "p2", records: 5, laterPage: true)], []),
        // A server that counts only on a later page: that count.
        ([Part(name: "p1", records: 5), Part(name: "p2", records: 4, declaredCount: 10, laterPage: true)],
         ["COUNT 10 > 9 rows read"]),
        // An @odata.nextLink nobody followed on the last part (a file, a page set); earlier parts' are followed.
        ([Part(name: "a.json", records: 2, nextLink: true)], ["@odata.nextLink not followed"]),
        ([Part(name: "p1.json", records: 2, nextLink: true), Part(name: "p2.json", records: 2)], []),
        ([Part(name: "p1.json", records: 2, nextLink: true), Part(name: "p2.json", records: 2, nextLink: true)],
         ["@odata.nextLink not followed in p2.json"]),
        ([Part(name: "p1", records: 2, nextLink: true), Part(name: "p2", records: 2, nextLink: true, laterPage: true)],
         ["@odata.nextLink not followed"]),
    ])
    func pagesAndNextLinks(parts: [Part], reasons: [String]) {
        #expect(Completeness(parts: parts).reasons == reasons)
    }

    @Test func pagingThatStoppedForAReasonOfItsOwnSaysThatReasonOnly() {
        let parts = [Part(name: "p1", records: 2, nextLink: true), Part(name: "p2", records: 2, nextLink: true,
                                                                         laterPage: true)]
        #expect(Completeness(parts: parts, stoppedAtPages: 2).reasons == ["paging stopped at max_pages (2 pages)"])
        #expect(Completeness(parts: parts, pausedAt: "2 requests per hour").reasons
            == ["paused at 2 requests per hour"])
    }

    @Test func aRunThatEndedEarlyIsIncomplete() {
        #expect(Completeness.unfinished.summary == "the run ended before its input was read to the end")
        #expect(!Completeness.unfinished.isComplete)
    }

    @Test func pagingStoppedAtItsLimitIsIncomplete() {
        let completeness = Completeness(parts: [Part(name: "p1", records: 10)], stoppedAtPages: 1000)
        #expect(!completeness.isComplete)
        #expect(completeness.summary == "paging stopped at max_pages (1000 pages)")
    }
}
