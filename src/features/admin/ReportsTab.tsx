import { Badge, Blockquote, Button, Flex } from "@radix-ui/themes";
import { useMutation, usePaginatedQuery, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { AdminCard, AdminList, CountBadge, MicLine, moreOf, QUEUE_PAGE_SIZE, useAdminAction } from "./AdminListParts";
import { queueCount, REPORT_KIND_LABELS, submittedDate } from "./adminText";
import type { AdminReport } from "./types";

type ReportCardProps = {
  report: AdminReport;
  onEditMic: (micId: Id<"sceneItems">, reportId: Id<"problemReports">) => void;
};

function ReportCard({ report, onEditMic }: ReportCardProps) {
  const resolve = useMutation(api.reports.resolve);
  const { busy, run, button } = useAdminAction<"dismiss" | "deactivate">("Failed to update report");
  const act = (action: "dismiss" | "deactivate") =>
    run(
      action,
      () => resolve({ id: report._id, action }),
      action === "dismiss" ? "Report dismissed" : "Mic deactivated",
    );
  const title = report.micTitle ?? "deleted mic";
  return (
    <AdminCard
      label={`Report on ${title}`}
      heading={REPORT_KIND_LABELS[report.kind]}
      subline={
        <>
          Reported {submittedDate(report._creationTime)} by {report.reporterName}
        </>
      }
      badge={
        report.micStatus === "inactive" ? (
          <Badge color="gray" variant="soft">
            Mic inactive
          </Badge>
        ) : null
      }
    >
      <MicLine micId={report.micId} micTitle={report.micTitle} />
      {report.note ? <Blockquote size="2">{report.note}</Blockquote> : null}
      <Flex gap="2" wrap="wrap">
        <Button variant="soft" onClick={() => onEditMic(report.micId, report._id)} disabled={report.micTitle === null}>
          Edit mic
        </Button>
        <Button
          color="red"
          variant="soft"
          {...button("deactivate", () => act("deactivate"))}
          disabled={busy !== null || report.micTitle === null}
        >
          Deactivate mic
        </Button>
        <Button variant="soft" color="gray" {...button("dismiss", () => act("dismiss"))}>
          Dismiss
        </Button>
      </Flex>
    </AdminCard>
  );
}

/** Open problem reports, live, newest first, a page at a time ('Load more'). */
export function ReportsTab({ onEditMic }: { onEditMic: ReportCardProps["onEditMic"] }) {
  const reports = usePaginatedQuery(api.reports.list, {}, { initialNumItems: QUEUE_PAGE_SIZE });
  const counts = useQuery(api.admin.queueCounts, {});
  return (
    <AdminList
      title="Problem Reports"
      subtitle="Mics comedians say have ended or changed"
      badge={<CountBadge color="red">{`${queueCount(counts?.openReports, counts?.cap ?? 0)} open`}</CountBadge>}
      items={reports.status === "LoadingFirstPage" ? undefined : reports.results}
      loadingLabel="Loading reports…"
      empty={{ title: "No open reports.", description: "Reports from comedians show up here as they come in." }}
      renderItem={(report) => <ReportCard key={report._id} report={report} onEditMic={onEditMic} />}
      more={moreOf(reports)}
    />
  );
}
