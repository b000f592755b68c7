import GRDB

extension HistoryDatabase {
    /// The schema's versions, applied in order; never edit a registered migration, add one.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: facts and sightings") { db in
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
        return migrator
    }()
}
