/**
 * The REST contract: the four platform operations of the spec, matched in Network traffic and checked
 * against their documented rules and shapes. Pure; never throws.
 */
import { checkShape, type Field, type Shape, type ShapeProblem } from './shape.ts';
import { issue, verdictOf, type Issue, type Verdict } from './classify.ts';

const S = 'string' as const,
  I = 'integer' as const,
  B = 'boolean' as const,
  A = 'any' as const;
const opt = (s: Shape): Field => [s, false];
const req = (s: Shape): Field => [s, true];
const n = (s: Shape): Shape => ({ nullable: s });
const free: Shape = { object: {}, open: true };
const ITEM_TYPES = ['FOLDER', 'WORKBOOK', 'REPORT'] as const;

const ResourceOwner: Shape = { object: { id: req(I), email: req(S), firstName: opt(n(S)), picture: opt(n(S)) } };
const FolderPathEntry: Shape = { object: { id: req(I), name: req(S) } };
const ReportPlacement: Shape = {
  object: {
    workbookId: req(S),
    resultLocation: req(S),
    id: opt(n(S)),
    sheetName: opt(n(S)),
    sheetId: opt(n(S)),
    anchorCell: opt(n(S)),
    endResultCell: opt(n(S)),
    host: opt(n({ enum: ['GOOGLE_SHEETS', 'EXCEL'] })),
    workbookName: opt(n(S)),
    placedAt: opt(n(S)),
    placedByUserId: opt(n(I)),
    refreshedAt: opt(n(S)),
    refreshedByUserId: opt(n(I)),
  },
};
const PivotItems: Shape = {
  object: {
    columns: req({ array: S }),
    measures: req({ array: S }),
    rows: req({ array: S }),
    filters: req({ array: S }),
    measuresAxis: opt(n({ enum: ['columns', 'rows'] })),
    measuresPosition: opt(n({ enum: ['before', 'after'] })),
  },
};
const RoleWithAccess: Shape = { object: { id: req(I), name: req(S), actions: req({ array: S }) } };
const Report: Shape = {
  object: {
    id: req(I),
    publicId: req({ pattern: /^[0-9A-Za-z]+$/, length: 12, doc: 'a 12-character alphanumeric public id' }),
    deploymentId: req(I),
    userId: req(I),
    user: req(ResourceOwner),
    name: req(S),
    refreshedByUser: req(ResourceOwner),
    createdAt: req('date'),
    updatedAt: req('date'),
    type: req({ enum: ITEM_TYPES }),
    createdBy: opt(I),
    canEdit: opt(n(B)),
    canManage: opt(n(B)),
    description: opt(n(S)),
    title: opt(n(S)),
    endResultCell: opt(n(S)),
    resultLocation: opt(n(S)),
    externalWorkbookId: opt(n(S)),
    externalWorkbookPlacements: opt(n({ array: ReportPlacement })),
    jsonQuery: opt(n(S)),
    sqlQuery: opt(n(S)),
    folderId: opt(n(I)),
    folderPath: opt({ array: FolderPathEntry }),
    meta: opt(n(free)),
    pivotItems: opt(n(PivotItems)),
    refreshedBy: opt(n(I)),
    rolesWithAccess: opt(n({ array: RoleWithAccess })),
    source: opt(n({ enum: ['GOOGLE_SHEETS', 'EXCEL', 'PLAYGROUND', 'D3'] })),
    version: opt(n(I)),
    workbookId: opt(n(I)),
  },
};
const Position: Shape = { object: { h: opt(I), w: opt(I), x: opt(I), y: opt(I) } };
const Breakpoints: Shape = { object: { lg: opt(I), md: opt(I), sm: opt(I), xs: opt(I), xxs: opt(I) } };
const DashboardConfig: Shape = {
  object: {
    title: opt(S),
    description: opt(S),
    kind: opt(S),
    settings: opt(free),
    theme: opt(free),
    app: opt({
      object: {
        entry: opt(S),
        html: opt(S),
        files: opt(free),
        manifest: opt({ object: { dependencies: opt(free), version: opt(I) } }),
      },
    }),
    layout: opt({
      object: {
        breakpoints: opt(Breakpoints),
        cols: opt(Breakpoints),
        containerPadding: opt({ array: I }),
        margin: opt({ array: I }),
        rowHeight: opt(I),
      },
    }),
    widgets: opt({
      array: {
        object: {
          id: opt(S),
          position: opt(Position),
          type: opt(S),
          config: opt(free),
          responsiveLayouts: opt({
            object: { lg: opt(Position), md: opt(Position), sm: opt(Position), xs: opt(Position), xxs: opt(Position) },
          }),
          style: opt(free),
        },
      },
    }),
  },
};
const ReportSnapshot: Shape = {
  object: {
    id: opt(I),
    reportId: opt(I),
    versionNumber: opt(I),
    name: opt(S),
    title: opt(S),
    description: opt(S),
    kind: opt(S),
    spec: opt(S),
    sqlQuery: opt(S),
    isSourceReport: opt(B),
    meta: opt(free),
    preferences: opt({ object: { columnFormats: opt(free) } }),
    fillMissingRows: opt({ object: { member: opt(S), excludedDimensions: opt({ array: S }) } }),
    periodComparisons: opt({
      array: {
        object: {
          measure: opt(S),
          timeDimension: opt(S),
          offset: opt({ object: { amount: opt(I), unit: opt(S) } }),
          outputs: opt({ array: S }),
        },
      },
    }),
  },
};
const PublishedDashboard: Shape = {
  object: {
    id: opt(I),
    deploymentId: opt(I),
    publicId: opt(S),
    workbookId: opt(I),
    versionId: opt(I),
    versionNumber: opt(I),
    status: opt(S),
    allowEmbed: opt(B),
    config: opt(DashboardConfig),
    createdBy: opt(I),
    title: opt(S),
    description: opt(S),
    fromSharedWorkspace: opt(B),
    restrictDataDownload: opt(B),
    useBoardDashboards: opt(B),
    reportSnapshots: opt({ array: ReportSnapshot }),
  },
};
// "Which fields of the workspace item are required: not shown": all optional.
const WorkspaceItem: Shape = {
  object: {
    id: opt(I),
    deploymentId: opt(I),
    name: opt(S),
    type: opt({ enum: ITEM_TYPES }),
    createdAt: opt('date'),
    updatedAt: opt('date'),
    createdBy: opt(I),
    userId: opt(I),
    user: opt({ object: { email: opt(S), id: opt(I), firstName: opt(S), picture: opt(S) } }),
    calculatedFields: opt(free),
    meta: opt(free),
    slug: opt(S),
    folderId: opt(n(I)),
    folderPath: opt({ array: FolderPathEntry }),
    isFavorite: opt(B),
    dashboardDraft: opt(DashboardConfig),
    dashboardPublished: opt(DashboardConfig),
    publishedDashboard: opt(PublishedDashboard),
  },
};
const FilterOut: Shape = {
  object: {
    member: opt(S),
    value: opt(S),
    caseSensitive: opt(A),
    startInclusive: opt(A),
    endInclusive: opt(A),
    operator: opt(S),
  },
};
const Notification: Shape = {
  object: {
    id: opt(I),
    deploymentId: opt(I),
    dashboardId: opt(I),
    cronExpression: opt(S),
    humanReadableSchedule: opt(S),
    timezone: opt(S),
    isEnabled: opt(B),
    notificationEnabled: opt(B),
    notificationFormat: opt({ enum: ['png', 'pdf'] }),
    filters: opt({ array: FilterOut }),
    timeGrains: opt({ array: { object: { grain: opt(S), member: opt(S) } } }),
  },
};

const DisconnectInput: Shape = {
  object: {
    placementId: opt(n(S)),
    externalWorkbookId: opt(n(S)),
    sheetName: opt(n(S)),
    anchorCell: opt(n(S)),
    resultLocation: opt(n(S)),
    sheetId: opt(n(S)),
  },
};
// "Whether `type` is required: not shown": optional here.
const MoveInput: Shape = {
  object: { type: opt({ enum: ['WORKBOOK', 'REPORT', 'FOLDER'] }), id: req(I), folderId: opt(n(I)) },
};
const UpdateNotificationInput: Shape = {
  object: {
    scheduleType: opt({ enum: ['HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'CUSTOM'] }),
    hour: opt(I),
    minute: opt(I),
    dayOfWeek: opt(I),
    dayOfMonth: opt(I),
    customCron: opt(S),
    timezone: opt(S),
    isEnabled: opt(B),
    notificationEnabled: opt(B),
    notificationFormat: opt({ enum: ['png', 'pdf'] }),
    filters: opt({
      array: {
        object: { member: req(S), value: req(S), caseSensitive: opt(A), startInclusive: opt(A), endInclusive: opt(A) },
      },
    }),
    timeGrains: opt({ array: { object: { grain: req(S), member: req(S) } } }),
  },
};

export interface RestOperation {
  id: 'disconnectReportFromWorkbook' | 'moveWorkspaceItem' | 'getWorkbook' | 'updateNotification';
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: RegExp;
  params: readonly string[];
  title: string;
  body?: Shape;
  bodyRequired?: boolean;
  response: Shape;
  /** Status codes the spec documents for the operation. */
  statuses: readonly number[];
}

const P = '/api/v1/deployments/([^/?#]+)';
export const REST_OPERATIONS: readonly RestOperation[] = [
  {
    id: 'disconnectReportFromWorkbook',
    method: 'DELETE',
    path: new RegExp(`${P}/reports/([^/?#]+)/connect-workbook/?$`),
    params: ['deploymentId', 'reportId'],
    title: 'Disconnect a report from one spot in a spreadsheet',
    body: DisconnectInput,
    response: Report,
    statuses: [200],
  },
  {
    id: 'moveWorkspaceItem',
    method: 'POST',
    path: new RegExp(`${P}/workspace/move/?$`),
    params: ['deploymentId'],
    title: 'Move a workspace item',
    body: MoveInput,
    bodyRequired: true,
    response: WorkspaceItem,
    statuses: [200, 400, 404],
  },
  {
    id: 'getWorkbook',
    method: 'GET',
    path: new RegExp(`${P}/workbooks/([^/?#]+)/?$`),
    params: ['deploymentId', 'workbookId'],
    title: 'Get workbook',
    response: WorkspaceItem,
    statuses: [200],
  },
  {
    id: 'updateNotification',
    method: 'PUT',
    path: new RegExp(`${P}/notifications/([^/?#]+)/?$`),
    params: ['deploymentId', 'id'],
    title: 'Update a scheduled notification',
    body: UpdateNotificationInput,
    response: Notification,
    statuses: [200, 404],
  },
];

/** One request/response seen in the Network traffic (HAR entry, reduced). */
export interface RestExchange {
  method: string;
  url: string;
  status: number;
  requestHeaders?: Record<string, string> | ReadonlyArray<{ name: string; value: string }>;
  requestBody?: string | null;
  responseBody?: string | null;
  /** Bodies cut at a size cap: not checked (their shape cannot be judged from a part). */
  truncated?: { requestBody?: boolean; responseBody?: boolean };
}
export interface RestResult {
  operation: RestOperation['id'];
  title: string;
  params: Record<string, string>;
  verdict: Exclude<Verdict, 'foreign'>;
  issues: Issue[];
}

export function matchOperation(
  method: string,
  url: string,
): { op: RestOperation; params: Record<string, string> } | null {
  let path: string;
  try {
    path = new URL(url, 'http://x').pathname;
  } catch {
    return null;
  }
  for (const op of REST_OPERATIONS) {
    if (op.method !== method.toUpperCase()) {
      continue;
    }
    const m = op.path.exec(path);
    if (m) {
      return { op, params: Object.fromEntries(op.params.map((p, i) => [p, decodeURIComponent(m[i + 1])])) };
    }
  }
  return null;
}

function header(h: RestExchange['requestHeaders'], name: string): string | undefined {
  if (!h) {
    return undefined;
  }
  const lower = name.toLowerCase();
  if (Array.isArray(h)) {
    return h.find((x) => x.name.toLowerCase() === lower)?.value;
  }
  for (const [k, v] of Object.entries(h)) {
    if (k.toLowerCase() === lower) {
      return v as string;
    }
  }
  return undefined;
}

function parseJson(
  text: string | null | undefined,
): { ok: true; value: unknown } | { ok: false; error: string } | null {
  if (text === undefined || text === null || text.trim() === '') {
    return null;
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

const shapeIssues = (problems: ShapeProblem[], where: 'request' | 'response', root: string): Issue[] =>
  problems.map((p) => {
    const path = root + p.path.slice(1);
    if (p.kind === 'unknown') {
      return issue(`rest.${where}-unknown-field`, path, p.message);
    }
    return issue(`rest.${where}-shape`, path, p.message);
  });

/** Check one exchange; null when it is not one of the four documented operations. Never throws. */
export function checkRest(x: RestExchange): RestResult | null {
  try {
    const hit = matchOperation(x.method, x.url);
    if (!hit) {
      return null;
    }
    const { op, params } = hit;
    const issues: Issue[] = [];
    for (const [k, v] of Object.entries(params)) {
      if (!/^\d+$/.test(v)) {
        issues.push(issue('rest.path-param', `path.${k}`, `${k} "${v}" is not a numeric id`));
      }
    }
    const auth = header(x.requestHeaders, 'authorization');
    if (x.requestHeaders && !/^Bearer\s+\S+/i.test(auth ?? '')) {
      issues.push(
        issue(
          'rest.auth',
          'request.headers.Authorization',
          auth ? 'the Authorization header is not "Bearer <token>"' : 'no Authorization: Bearer header',
        ),
      );
    }

    const body = x.truncated?.requestBody ? null : parseJson(x.requestBody);
    let input: Record<string, unknown> | null = null;
    if (op.body && !x.truncated?.requestBody) {
      if (body === null) {
        if (op.bodyRequired) {
          issues.push(issue('rest.request-shape', 'request.body', 'the request has no JSON body'));
        }
      } else if (!body.ok) {
        issues.push(issue('rest.request-json', 'request.body', `the request body is not JSON: ${body.error}`));
      } else {
        issues.push(...shapeIssues(checkShape(body.value, op.body), 'request', 'request.body'));
        if (body.value && typeof body.value === 'object' && !Array.isArray(body.value)) {
          input = body.value as Record<string, unknown>;
        }
      }
      const ct = header(x.requestHeaders, 'content-type');
      if (body !== null && x.requestHeaders && ct !== undefined && !/application\/json/i.test(ct)) {
        issues.push(
          issue('rest.request-json', 'request.headers.Content-Type', `Content-Type is "${ct}", not application/json`),
        );
      }
    }
    if (op.id === 'disconnectReportFromWorkbook' && !x.truncated?.requestBody) {
      issues.push(...disconnectAddress(input));
    }

    if (!op.statuses.includes(x.status) && x.status !== 0) {
      if (op.id === 'disconnectReportFromWorkbook' && x.status === 404) {
        issues.push(
          issue(
            'rest.status',
            'response.status',
            '404 from disconnect: a target that matches no placement succeeds with 200 and changes nothing',
          ),
        );
      } else if (x.status >= 500) {
        issues.push(issue('rest.status', 'response.status', `${x.status}: a server error`));
      } else {
        issues.push(
          issue(
            'rest.status-undocumented',
            'response.status',
            `${x.status} is not a status the spec documents for this operation (${op.statuses.join(', ')})`,
          ),
        );
      }
    }
    if (x.status === 200 && !x.truncated?.responseBody) {
      const res = parseJson(x.responseBody);
      if (res === null) {
        if (x.responseBody !== undefined) {
          issues.push(issue('rest.response-shape', 'response.body', 'the 200 response has no JSON body'));
        }
      } else if (!res.ok) {
        issues.push(issue('rest.response-shape', 'response.body', `the response body is not JSON: ${res.error}`));
      } else {
        issues.push(...shapeIssues(checkShape(res.value, op.response), 'response', 'response.body'));
        issues.push(...resultRules(op.id, params, input, res.value));
      }
    }
    return {
      operation: op.id,
      title: op.title,
      params,
      verdict: verdictOf(issues) as Exclude<Verdict, 'foreign'>,
      issues,
    };
  } catch (_err) {
    return null;
  }
}

const present = (v: unknown) => typeof v === 'string' && v !== '';

/** Disconnect rules 2–5: which addresses can match a placement. */
function disconnectAddress(b: Record<string, unknown> | null): Issue[] {
  const at = 'request.body';
  if (!b) {
    return [issue('rest.disconnect-address', at, 'no placement is addressed: the call succeeds and changes nothing')];
  }
  if (present(b.placementId) || present(b.resultLocation)) {
    return [];
  }
  const legacy = ['externalWorkbookId', 'sheetName', 'anchorCell'];
  if (legacy.every((k) => present(b[k]))) {
    return [];
  }
  if (present(b.sheetId) && !present(b.sheetName)) {
    return [
      issue(
        'rest.disconnect-address',
        `${at}.sheetId`,
        'sheetId is not a substitute for sheetName: an id-only address matches nothing',
      ),
    ];
  }
  const missing = legacy.filter((k) => !present(b[k]));
  return [
    issue(
      'rest.disconnect-address',
      at,
      `legacy addressing needs externalWorkbookId, sheetName and anchorCell; missing ${missing.join(', ')}: matches nothing`,
    ),
  ];
}

/** What the response must say given the request (warnings: the spec describes, the server decides). */
function resultRules(
  op: RestOperation['id'],
  params: Record<string, string>,
  input: Record<string, unknown> | null,
  res: unknown,
): Issue[] {
  if (!res || typeof res !== 'object' || Array.isArray(res)) {
    return [];
  }
  const r = res as Record<string, unknown>;
  const out: Issue[] = [];
  if (op === 'moveWorkspaceItem' && input && 'folderId' in input) {
    const want = input.folderId ?? null,
      got = r.folderId ?? null;
    if (want !== got) {
      out.push(
        issue(
          'rest.result',
          'response.body.folderId',
          `moved to folderId ${JSON.stringify(want)} but the item says ${JSON.stringify(got)}`,
        ),
      );
    }
    if (input.id !== undefined && r.id !== undefined && r.id !== input.id) {
      out.push(
        issue(
          'rest.result',
          'response.body.id',
          `moved item ${JSON.stringify(input.id)} but the response is item ${JSON.stringify(r.id)}`,
        ),
      );
    }
  }
  if (op === 'getWorkbook') {
    if (r.type !== undefined && r.type !== 'WORKBOOK') {
      out.push(issue('rest.result', 'response.body.type', `get workbook returned a ${String(r.type)}`));
    }
    if (r.id !== undefined && String(r.id) !== params.workbookId) {
      out.push(
        issue('rest.result', 'response.body.id', `asked for workbook ${params.workbookId}, got ${String(r.id)}`),
      );
    }
  }
  if (op === 'updateNotification') {
    if (r.id !== undefined && String(r.id) !== params.id) {
      out.push(
        issue('rest.result', 'response.body.id', `updated notification ${params.id}, the response is ${String(r.id)}`),
      );
    }
    if (input) {
      for (const k of ['timezone', 'isEnabled', 'notificationEnabled', 'notificationFormat'] as const) {
        if (k in input && k in r && input[k] !== r[k]) {
          out.push(
            issue(
              'rest.result',
              `response.body.${k}`,
              `${k} was set to ${JSON.stringify(input[k])} but the response says ${JSON.stringify(r[k])}`,
            ),
          );
        }
      }
      const same = (a: unknown, b: unknown, keys: string[]) =>
        Array.isArray(a) &&
        Array.isArray(b) &&
        a.length === b.length &&
        a.every((x, i) =>
          keys.every((k) => (x as Record<string, unknown>)?.[k] === (b[i] as Record<string, unknown>)?.[k]),
        );
      if (
        Array.isArray(input.filters) &&
        Array.isArray(r.filters) &&
        !same(input.filters, r.filters, ['member', 'value'])
      ) {
        out.push(
          issue(
            'rest.result',
            'response.body.filters',
            'filters were given, so they replace the existing set; the response has a different set',
          ),
        );
      }
      if (
        Array.isArray(input.timeGrains) &&
        Array.isArray(r.timeGrains) &&
        !same(input.timeGrains, r.timeGrains, ['grain', 'member'])
      ) {
        out.push(
          issue(
            'rest.result',
            'response.body.timeGrains',
            'timeGrains were given, so they replace the existing set; the response has a different set',
          ),
        );
      }
    }
  }
  return out;
}
