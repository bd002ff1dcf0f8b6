import Testing
@testable import MLSFeed

/// Whether a run's recognised keys are known distinct, from the places their copies name in the stored set.
@Suite struct RecognisedKeysTests {
    @Test(arguments: [
        ([0, 1, 2, 199], false),  // each stored listing once
        (Array(0..<200), false),  // every place, across many words
        ([5, 6, 5], true),  // a listing twice
        ([1, 64, 65, 128, 1], true),  // a repeat after others in other words
        ([1, 200], true),  // a place outside the set
        ([1, -1], true),  // a copy with no known place
    ])
    func placesNamedTwiceOrUnknownMayRepeat(places: [Int32], mayRepeat: Bool) {
        var keys = RecognisedKeys()
        for place in places { keys.note(place: place, of: 200) }
        #expect(keys.mayRepeat == mayRepeat)
    }

    /// The places named are remembered, a repeat included, so the merge can tell which stored listings no copy
    /// named; a copy with no known place leaves them unknown.
    @Test(arguments: [
        ([0, 1, 63, 64, 199], true),
        ([5, 6, 5], true),  // a repeat still knows its places
        ([], true),  // nothing recognised: no place named
        ([1, -1], false),
        ([1, 200], false),
    ])
    func namedPlacesAreKnownUnlessACopyNamedNone(places: [Int32], known: Bool) {
        var keys = RecognisedKeys()
        for place in places { keys.note(place: place, of: 200) }
        #expect(keys.placesKnown == known)
        guard known else { return }
        #expect((0..<200).filter { keys.named($0) } == Array(Set(places.map(Int.init))).sorted())
        #expect(!keys.named(200))
    }

    @Test func aRunWithoutAStoredSetMayRepeat() {
        var keys = RecognisedKeys()
        #expect(!keys.mayRepeat)
        keys.note(place: 1, of: 200)
        #expect(!keys.mayRepeat)
        keys.note(place: 2, of: nil)
        #expect(keys.mayRepeat)
        #expect(!keys.placesKnown)
        keys.note(place: 3, of: 200)
        #expect(keys.mayRepeat)
        #expect(!keys.placesKnown)
    }
}
