import Catalogue
import Testing

/// Statements are written with named parameters for both engines; PostgreSQL's protocol takes
/// `$n`. The names must become numbers in order of first use, a name used twice one number,
/// and nothing in quotes, comments or casts may be taken for a parameter.
@Suite struct PostgresNumberedSQLTests {
    @Test func namesBecomeNumbersInOrderOfFirstUse() {
        let statement = PostgresNumberedSQL("UPDATE runs SET seen = :seen WHERE id = :run AND owner IS NOT NULL OR id = :run")
        #expect(statement.sql == "UPDATE runs SET seen = $1 WHERE id = $2 AND owner IS NOT NULL OR id = $2")
        #expect(statement.names == [":seen", ":run"])
    }

    @Test func castsQuotesAndCommentsAreLeftAlone() {
        let statement = PostgresNumberedSQL("""
            SELECT :ids::bigint[], ':not_one', "odd:name", 'it''s :still_text' -- :a comment
            FROM t WHERE x = :x_2
            """)
        #expect(statement.sql == """
            SELECT $1::bigint[], ':not_one', "odd:name", 'it''s :still_text' -- :a comment
            FROM t WHERE x = $2
            """)
        #expect(statement.names == [":ids", ":x_2"])
    }

    @Test func aColonNotFollowedByANameStaysAsItIs() {
        let statement = PostgresNumberedSQL("SELECT 'a' || ':' || :name, ARRAY[1,2,3][1:2]")
        #expect(statement.sql == "SELECT 'a' || ':' || $1, ARRAY[1,2,3][1:2]")
        #expect(statement.names == [":name"])
    }
}
