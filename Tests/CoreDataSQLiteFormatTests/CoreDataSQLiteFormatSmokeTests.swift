import Testing

@Test func CoreDataSQLiteFormatTargetBuilds() {
    #expect(Bool(true))
}
