import { unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest, ApiResponse, ApiRoute } from '../../transports/http/handoff/index.js';
import type { Grant } from '../accounts/user.js';
import { isAssignedTo, type Assignment, type Submission } from '../education/assignment.js';
import type { ScoreApiParts } from './api-parts.js';
import { grantedRoutes } from './access.js';
import { ASSIGNMENTS_READ, assignmentFor, taughtClassFor } from './education-access.js';

export type GradeExportParts = Pick<ScoreApiParts, 'accounts' | 'education' | 'now'>;

/** The columns of a grades export, one row per student the assignment is for. */
const COLUMNS = ['Username', 'First name', 'Last name', 'Email', 'State', 'Submission date', 'Return date', 'Draft grade', 'Grade', 'Max points'] as const;

type Cell = string | number | Date | null;

/**
 * The teachers' grades exports of an assignment: exportSubmissionsReviewsAsCsv and
 * exportSubmissionsReviewsAsExcel. Registered as static segments, which the router matches
 * before `…/submissions/{submission}`.
 */
export function gradeExportRoutes(parts: GradeExportParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  return [
    route('GET', '/v2/classes/:class/assignments/:assignment/submissions/csv', ASSIGNMENTS_READ, exportSubmissionsReviewsAsCsv),
    route('GET', '/v2/classes/:class/assignments/:assignment/submissions/excel', ASSIGNMENTS_READ, exportSubmissionsReviewsAsExcel),
  ];
}

/** The assignment of a teacher's request and its grade rows: every student it is for, with their submission's state, dates and grades (empty without one). */
async function gradeRows(parts: GradeExportParts, request: ApiRequest, grant: Grant): Promise<{ assignment: Assignment; rows: Cell[][] }> {
  const access = unwrap(await taughtClassFor(parts.education, request, grant, 'export the grades'));
  const assignment = unwrap(await assignmentFor(parts.education, access, request, grant, parts.now()));
  const submissions = new Map<string, Submission>((await parts.education.listSubmissions(assignment.id)).map((s) => [s.creatorId, s]));
  const students = (await parts.education.members(access.classroom.id)).filter((m) => m.role === 'student' && (isAssignedTo(assignment, m.userId) || submissions.has(m.userId)));
  const rows: Cell[][] = [];
  for (const { userId } of students) {
    const user = await parts.accounts.userById(userId);
    const profile = await parts.education.profileOf(userId);
    const submission = submissions.get(userId);
    const date = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms));
    rows.push([
      user?.username ?? userId,
      profile?.firstname ?? '',
      profile?.lastname ?? '',
      profile?.email ?? '',
      submission?.state ?? null,
      date(submission?.submissionDate),
      date(submission?.returnDate),
      submission?.draftGrade ?? null,
      submission?.grade ?? null,
      assignment.maxPoints,
    ]);
  }
  return { assignment, rows };
}

/** A download's name: the assignment's title as letters, digits, spaces, '-' and '_'. */
function fileName(assignment: Assignment, extension: string): string {
  const base = assignment.title.replace(/[^A-Za-z0-9 _-]/g, '').trim().slice(0, 100);
  return `${base === '' ? 'grades' : base}.${extension}`;
}

function download(body: string | Uint8Array, contentType: string, name: string): ApiResponse {
  return { status: 200, headers: [['Content-Type', contentType], ['Content-Disposition', `attachment; filename="${name}"`]], body };
}

/**
 * A CSV field (RFC 4180): quoted when it holds a quote, comma or line break. A text a spreadsheet
 * would read as a formula (=, +, -, @) is prefixed with a quote so that opening the file runs nothing.
 */
function csvField(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  const text = cell instanceof Date ? cell.toISOString() : /^[=+\-@]/.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function exportSubmissionsReviewsAsCsv(parts: GradeExportParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { assignment, rows } = await gradeRows(parts, request, grant);
  const lines = [COLUMNS as readonly Cell[], ...rows].map((row) => row.map(csvField).join(','));
  return download(`${lines.join('\r\n')}\r\n`, 'text/csv; charset=utf-8', fileName(assignment, 'csv'));
}

async function exportSubmissionsReviewsAsExcel(parts: GradeExportParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { assignment, rows } = await gradeRows(parts, request, grant);
  // Loaded on the first spreadsheet asked for: exceljs costs the API thread 0.4 s of CPU to load.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  // A sheet's name: at most 31 characters, none of : \ / ? * [ ].
  const sheet = workbook.addWorksheet(assignment.title.replace(/[:\\/?*[\]]/g, '').replace(/\s+/g, ' ').slice(0, 31).trim() || 'Grades');
  sheet.addRow([...COLUMNS]).font = { bold: true };
  for (const row of rows) sheet.addRow(row);
  const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
  return download(bytes, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', fileName(assignment, 'xlsx'));
}
