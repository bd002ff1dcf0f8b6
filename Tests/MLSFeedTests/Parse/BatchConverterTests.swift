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

    /// A batch comes back once converted (for its buffers), once; records come out in order.
    @Test func theSpentBatchComesBackOnceConverted() {
        let converter = Self.converter()
        #expect(converter.takeSpent() == nil)
        converter.submit(Numbers(values: Array(0..<100)), count: 100, inBackground: true)
        // In flight: nothing spent yet.
        #expect(converter.takeSpent() == nil)
        converter.submit(Numbers(values: Array(100..<150)), count: 50, inBackground: true)
        // The first batch was completed when the second came.
        #expect(converter.takeSpent()?.values == Array(0..<100))
        #expect(converter.takeSpent() == nil)
        converter.complete()
        #expect(converter.takeSpent()?.values == Array(100..<150))
        #expect(converter.takeReady().map(\.ordinal) == Array(0..<150))
    }

    /// A batch converted on the calling thread is spent at once.
    @Test func aBatchConvertedInPlaceIsSpentAtOnce() {
        let converter = Self.converter()
        converter.submit(Numbers(values: [7, 8]), count: 2, inBackground: false)
        #expect(converter.takeSpent()?.values == [7, 8])
        #expect(converter.takeReady().map { $0.value("n") } == ["7", "8"])
    }
}
