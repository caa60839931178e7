import { Badge, Blockquote, Box, Button, Card, Flex, Heading, Link, Text } from "@radix-ui/themes";
import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { Link as RouterLink } from "react-router-dom";
import { toast } from "sonner";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { EmptyState } from "@/components/EmptyState";
import { LoadingState } from "@/components/LoadingState";
import { paths } from "@/lib/paths";
import { REPORT_KIND_LABELS, submittedDate } from "./adminText";
import type { AdminReport } from "./types";

type ReportCardProps = {
  report: AdminReport;
  onEditMic: (micId: Id<"sceneItems">, reportId: Id<"problemReports">) => void;
};

function ReportCard({ report, onEditMic }: ReportCardProps) {
  const resolve = useMutation(api.reports.resolve);
  const [busy, setBusy] = useState<"dismiss" | "deactivate" | null>(null);
  const act = async (action: "dismiss" | "deactivate") => {
    setBusy(action);
    try {
      await resolve({ id: report._id, action });
      toast.success(action === "dismiss" ? "Report dismissed" : "Mic deactivated");
    } catch (error) {
      console.error("Failed to update report", error);
      toast.error("Failed to update report");
    } finally {
      setBusy(null);
    }
  };
  const title = report.micTitle ?? "deleted mic";
  return (
    <Card asChild size="2">
      <article aria-label={`Report on ${title}`}>
        <Flex direction="column" gap="2">
          <Flex justify="between" align="start" gap="3" wrap="wrap">
            <Box>
              <Heading as="h3" size="3">
                {REPORT_KIND_LABELS[report.kind]}
              </Heading>
              <Text size="1" color="gray">
                Reported {submittedDate(report._creationTime)} by {report.reporterName}
              </Text>
            </Box>
            {report.micStatus === "inactive" ? (
              <Badge color="gray" variant="soft">
                Mic inactive
              </Badge>
            ) : null}
          </Flex>
          <Text size="2">
            Mic:{" "}
            {report.micTitle === null ? (
              <Text color="gray">deleted mic</Text>
            ) : (
              <Link asChild>
                <RouterLink to={paths.event(report.micId)}>{report.micTitle}</RouterLink>
              </Link>
            )}
          </Text>
          {report.note ? <Blockquote size="2">{report.note}</Blockquote> : null}
          <Flex gap="2" wrap="wrap">
            <Button
              variant="soft"
              onClick={() => onEditMic(report.micId, report._id)}
              disabled={report.micTitle === null}
            >
              Edit mic
            </Button>
            <Button
              color="red"
              variant="soft"
              onClick={() => void act("deactivate")}
              loading={busy === "deactivate"}
              disabled={busy !== null || report.micTitle === null}
            >
              Deactivate mic
            </Button>
            <Button
              variant="soft"
              color="gray"
              onClick={() => void act("dismiss")}
              loading={busy === "dismiss"}
              disabled={busy !== null}
            >
              Dismiss
            </Button>
          </Flex>
        </Flex>
      </article>
    </Card>
  );
}

/** Open problem reports, live, newest first. */
export function ReportsTab({ onEditMic }: { onEditMic: ReportCardProps["onEditMic"] }) {
  const reports = useQuery(api.reports.list, {});
  return (
    <Flex direction="column" gap="4">
      <Flex justify="between" align="start" gap="3" wrap="wrap">
        <Box>
          <Heading as="h2" size="5">
            Problem Reports
          </Heading>
          <Text as="p" size="2" color="gray">
            Mics comedians say have ended or changed
          </Text>
        </Box>
        <Badge size="2" color="red" variant="soft">
          {`${reports?.length ?? 0} open`}
        </Badge>
      </Flex>
      {reports === undefined ? (
        <LoadingState variant="skeleton" label="Loading reports…" />
      ) : reports.length === 0 ? (
        <EmptyState
          headingAs="h3"
          title="No open reports."
          description="Reports from comedians show up here as they come in."
        />
      ) : (
        <Flex direction="column" gap="3">
          {reports.map((report) => (
            <ReportCard key={report._id} report={report} onEditMic={onEditMic} />
          ))}
        </Flex>
      )}
    </Flex>
  );
}
