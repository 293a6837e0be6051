/**
 * The one mapping from a dataset's Arrow types to DuckDB types, used both to create the writer's
 * staging table (so Parquet gets the exact physical/logical types) and to declare the catalog's
 * view columns (so readers see the same types whatever the files hold).
 */
import {
  BIGINT,
  BLOB,
  BOOLEAN,
  DATE,
  DOUBLE,
  DuckDBDecimalType,
  DuckDBListType,
  DuckDBStructType,
  type DuckDBType,
  INTEGER,
  TIMESTAMPTZ,
  VARCHAR
} from "@duckdb/node-api"
import * as arrow from "../ArrowTypes.ts"

/** Thrown for an Arrow type chainetl does not write; schemas/common.ts never produces one. */
export class UnsupportedType extends Error {}

const unsupported = (type: arrow.DataType, where: string): never => {
  throw new UnsupportedType(`column "${where}": Arrow type ${String(type)} has no chainetl mapping`)
}

/** The DuckDB type of an Arrow type; `where` names the column in errors. */
export const duckTypeOf = (type: arrow.DataType, where: string): DuckDBType => {
  switch (type.typeId) {
    case arrow.Type.Utf8:
      return VARCHAR
    case arrow.Type.Bool:
      return BOOLEAN
    case arrow.Type.Binary:
      return BLOB
    case arrow.Type.Int: {
      const t = type as arrow.Int
      if (!t.isSigned) return unsupported(type, where)
      if (t.bitWidth === 32) return INTEGER
      if (t.bitWidth === 64) return BIGINT
      return unsupported(type, where)
    }
    case arrow.Type.Float:
      return (type as arrow.Float).precision === arrow.Precision.DOUBLE ? DOUBLE : unsupported(type, where)
    case arrow.Type.Decimal: {
      const t = type as arrow.Decimal
      if (t.precision < 1 || t.precision > 38 || t.scale < 0 || t.scale > t.precision) return unsupported(type, where)
      return new DuckDBDecimalType(t.precision, t.scale)
    }
    case arrow.Type.Timestamp: {
      const t = type as arrow.Timestamp
      // only UTC micro: a wall-clock TIMESTAMP would let notebooks shift it by their session zone
      return t.unit === arrow.TimeUnit.MICROSECOND && t.timezone === "UTC" ? TIMESTAMPTZ : unsupported(type, where)
    }
    case arrow.Type.Date:
      return (type as arrow.Date_).unit === arrow.DateUnit.DAY ? DATE : unsupported(type, where)
    case arrow.Type.List: {
      const child = (type as arrow.List).children[0]!
      return new DuckDBListType(duckTypeOf(child.type, `${where}[]`))
    }
    case arrow.Type.Struct: {
      const children = (type as arrow.Struct).children
      return new DuckDBStructType(
        children.map((c) => c.name),
        children.map((c) => duckTypeOf(c.type, `${where}.${c.name}`))
      )
    }
    default:
      return unsupported(type, where)
  }
}

/** The SQL spelling of the DuckDB type of an Arrow type, e.g. `STRUCT(a DECIMAL(38,0))[]`. */
export const sqlTypeOf = (type: arrow.DataType, where: string): string => duckTypeOf(type, where).toString()
