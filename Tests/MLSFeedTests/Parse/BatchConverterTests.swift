import Testing
@testable import MLSFeed

@Suite struct BatchConverterTests {
    struct Numbers: Sendable {
        var values: [Int]
    }

    static func converter() -> BatchConverter<Numbers> {
        BatchConverter { batch, range in
            range.map {
                RawRecord(fields: [RawField("n", String(batch.values[$0]))],
                          position: SourcePosition(file: "numbers", line: 1, column: 1), ordinal: batch.values[$0])
            }
        }
    }

    /// Records of a batch in flight are ready once the next batch comes (or `complete`), in entry order.
    @Test func recordsAreReadyOnceTheirBatchIsCompleted() {
        let converter = Self.converter()
        converter.submit(Numbers(values: Array(0..<100)), count: 100, inBackground: true)
        #expect(converter.takeReady().isEmpty)
        converter.submit(Numbers(values: Array(100..<150)), count: 50, inBackground: true)
        #expect(converter.takeReady().map(\.ordinal) == Array(0..<100))
        converter.complete()
        #expect(converter.takeReady().map(\.ordinal) == Array(100..<150))
        #expect(converter.takeReady().isEmpty)
    }

    /// A batch converted on the calling thread is ready at once.
    @Test func aBatchConvertedInPlaceIsReadyAtOnce() {
        let converter = Self.converter()
        converter.submit(Numbers(values: [7, 8]), count: 2, inBackground: false)
        #expect(converter.takeReady().map { $0.value("n") } == ["7", "8"])
    }
}
