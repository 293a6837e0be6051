/**
 * The part of apache-arrow chainetl uses: its type and schema classes (a column's type, a dataset's
 * schema, their metadata), which drive the Parquet columns, the catalog's types and comments and
 * the wire decoders. Imported from the package's own modules, not its index: the index loads
 * builders, vectors, IPC and flatbuffers too, many times the JavaScript of these, which every
 * command compiled and evaluated at start (docs/performance.md, "Why the code is shaped so"). The classes are
 * the same objects the index exports, so code importing "apache-arrow" (tests, the bench) mixes
 * with these freely.
 */
export { Binary, Bool, DataType, Date_, DateDay, Decimal, Float, Float64, Int, Int32, Int64, List, Struct, Timestamp, TimestampMicrosecond, Utf8 } from "apache-arrow/type"
export { Field, Schema } from "apache-arrow/schema"
export { DateUnit, Precision, TimeUnit, Type } from "apache-arrow/enum"
