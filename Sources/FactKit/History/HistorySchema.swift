import GRDB

/// The history file's schema: weft's application id, the versioned migrations, and how a
/// file is recognised as weft's own before anything is written to it.
///
/// A file is weft's when SQLite's `PRAGMA application_id` holds ``applicationID``. A file
/// made by a weft from before the id (id 0) is accepted when its schema is exactly weft's
/// (``legacyTables``) and is then marked; an SQLite file with no tables and id 0 is empty and
/// becomes weft's. Anything else belongs to another program and is refused untouched.
enum HistorySchema {
    /// `PRAGMA application_id` of a weft history: the bytes "WEFT".
    static let applicationID: Int32 = 0x5745_4654

    /// The table that lists applied migrations, by identifier (the name and layout GRDB's
    /// `DatabaseMigrator` used, so files written by earlier weft versions are read as they are).
    static let migrationsTable = "grdb_migrations"

    /// The schema's versions, applied in order inside one write transaction; never edit a
    /// shipped migration, add one.
    static let migrations: [(identifier: String, migrate: @Sendable (Database) throws -> Void)] = [
        (
            "v1: facts and sightings",
            { db in
                try db.create(table: "fact") { table in
                    table.autoIncrementedPrimaryKey("id")
                    table.column("text", .text).notNull().unique(onConflict: .abort)
                    table.column("firstSeenAt", .datetime).notNull()
                }
                try db.create(table: "sighting") { table in
                    table.autoIncrementedPrimaryKey("id")
                    table.belongsTo("fact", onDelete: .cascade).notNull()
                    table.column("environment", .text).notNull()
                    table.column("fetchedAt", .datetime).notNull()
                }
            }
        )
    ]

    /// The tables and columns of a history written before the application id existed
    /// (schema v1): such a file is weft's only if it has exactly these.
    static let legacyTables: [String: [String]] = [
        "fact": ["id", "text", "firstSeenAt"],
        "sighting": ["id", "factId", "environment", "fetchedAt"],
        migrationsTable: ["identifier"],
    ]

    /// Whose a database file is, as far as its contents say.
    enum Ownership: Equatable {
        /// Marked with weft's application id.
        case weft
        /// Unmarked, but with exactly the schema of a weft history from before the id.
        case unmarkedWeft
        /// An SQLite database with no tables and no application id: nothing to lose.
        case empty
        /// Another program's database: a few of its tables, and how many it has.
        case foreign(tables: [String], count: Int)
    }

    /// Reads `db`'s application id and tables and says whose the file is. Reads only.
    static func ownership(of db: Database) throws -> Ownership {
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        if id == applicationID { return .weft }
        let foreign = Ownership.foreign(
            tables: Array(tables.prefix(HistoryDatabaseError.tablesShown)), count: tables.count)
        guard id == 0 else { return foreign }
        if tables.isEmpty { return .empty }
        guard Set(tables) == Set(legacyTables.keys) else { return foreign }
        for (table, columns) in legacyTables {
            let actual = try db.columns(in: table).map(\.name)
            guard actual == columns else { return foreign }
        }
        return .unmarkedWeft
    }

    /// Makes `db` a current weft history: refuses another program's file, applies the
    /// migrations it lacks and marks it with ``applicationID``, all in one immediate
    /// transaction, so processes opening the same new file at once migrate it exactly once.
    ///
    /// - Throws: ``HistoryDatabaseError/notAHistoryDatabase(path:tables:tableCount:)`` or
    ///   ``HistoryDatabaseError/newerSchema(path:)`` (nothing written), or SQLite's error.
    static func prepare(_ db: Database, path: String) throws {
        try db.inTransaction(.immediate) {
            if case .foreign(let tables, let count) = try ownership(of: db) {
                throw HistoryDatabaseError.notAHistoryDatabase(path: path, tables: tables, tableCount: count)
            }
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(migrationsTable) (identifier TEXT NOT NULL PRIMARY KEY)")
            let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM \(migrationsTable)"))
            guard applied.isSubset(of: migrations.map(\.identifier)) else {
                throw HistoryDatabaseError.newerSchema(path: path)
            }
            for migration in migrations where !applied.contains(migration.identifier) {
                try migration.migrate(db)
                try db.execute(
                    sql: "INSERT INTO \(migrationsTable) (identifier) VALUES (?)", arguments: [migration.identifier])
            }
            if try Int32.fetchOne(db, sql: "PRAGMA application_id") != applicationID {
                try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            }
            return .commit
        }
    }

    /// Checks, reading only, that `db` is a weft history this version can read: weft's (or an
    /// unmarked weft history), with every table it reads, and no migration it does not know.
    ///
    /// - Throws: ``HistoryDatabaseError/notAHistoryDatabase(path:tables:tableCount:)``,
    ///   ``HistoryDatabaseError/newerSchema(path:)``, or SQLite's error.
    static func checkReadable(_ db: Database, path: String) throws {
        switch try ownership(of: db) {
        case .foreign(let tables, let count):
            throw HistoryDatabaseError.notAHistoryDatabase(path: path, tables: tables, tableCount: count)
        case .empty:
            // Nothing to list, and nothing may be written here to make it a history.
            throw HistoryDatabaseError.notADatabase(path: path, reason: "an SQLite database with no tables yet")
        case .weft, .unmarkedWeft:
            break
        }
        let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM \(migrationsTable)"))
        guard applied.isSubset(of: migrations.map(\.identifier)) else {
            throw HistoryDatabaseError.newerSchema(path: path)
        }
    }

    /// The identifiers of the migrations applied to `db`, in the order they were registered.
    static func appliedMigrations(_ db: Database) throws -> [String] {
        let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM \(migrationsTable)"))
        return migrations.map(\.identifier).filter(applied.contains)
    }
}
