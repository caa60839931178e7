import { DataList, Link, Text } from "@radix-ui/themes";
import { formatTime12h } from "@convex/lib/time";
import { SignupInfo } from "../item/BadgesAndButtons";
import { checkInCountText, costText, scheduleText } from "../item/sceneText";
import { FreshnessBadge } from "../tonight/FreshnessBadge";
import type { SceneItem } from "../item/types";

/** The full facts of a mic or show, for the details dialog and the event page. */
export function EventFacts({ item, now }: { item: SceneItem; now: number }) {
  const cost = costText(item.costInfo);
  return (
    <DataList.Root orientation={{ initial: "vertical", sm: "horizontal" }} size="2">
      <DataList.Item>
        <DataList.Label>Schedule</DataList.Label>
        <DataList.Value>{scheduleText(item)}</DataList.Value>
      </DataList.Item>
      <DataList.Item>
        <DataList.Label>Show Time</DataList.Label>
        <DataList.Value>{item.startTimeLocal ? formatTime12h(item.startTimeLocal) : "Not set"}</DataList.Value>
      </DataList.Item>
      <DataList.Item>
        <DataList.Label>List Time</DataList.Label>
        <DataList.Value>{item.listTimeLocal ? formatTime12h(item.listTimeLocal) : "Not set"}</DataList.Value>
      </DataList.Item>
      {item.signupMethod ? (
        <DataList.Item>
          <DataList.Label>Sign-up</DataList.Label>
          <DataList.Value>
            <SignupInfo item={item} />
          </DataList.Value>
        </DataList.Item>
      ) : null}
      {cost ? (
        <DataList.Item>
          <DataList.Label>Cost</DataList.Label>
          <DataList.Value>{cost}</DataList.Value>
        </DataList.Item>
      ) : null}
      {item.performanceMinutes ? (
        <DataList.Item>
          <DataList.Label>Stage time</DataList.Label>
          <DataList.Value>{item.performanceMinutes} min</DataList.Value>
        </DataList.Item>
      ) : null}
      {item.hostName ? (
        <DataList.Item>
          <DataList.Label>Host</DataList.Label>
          <DataList.Value>{item.hostName}</DataList.Value>
        </DataList.Item>
      ) : null}
      {item.address ? (
        <DataList.Item>
          <DataList.Label>Address</DataList.Label>
          <DataList.Value>{item.address}</DataList.Value>
        </DataList.Item>
      ) : null}
      {item.showLink ? (
        <DataList.Item>
          <DataList.Label>Tickets</DataList.Label>
          <DataList.Value>
            <Link href={item.showLink} target="_blank" rel="noopener noreferrer">
              Show page
            </Link>
          </DataList.Value>
        </DataList.Item>
      ) : null}
      <DataList.Item>
        <DataList.Label>Check-ins</DataList.Label>
        <DataList.Value>
          <Text data-testid="check-in-count">{checkInCountText(item.checkInCount)}</Text>
        </DataList.Value>
      </DataList.Item>
      <DataList.Item>
        <DataList.Label>Last confirmed</DataList.Label>
        <DataList.Value>
          <FreshnessBadge item={item} now={now} />
        </DataList.Value>
      </DataList.Item>
      {item.notes ? (
        <DataList.Item>
          <DataList.Label>Notes</DataList.Label>
          <DataList.Value>
            <Text style={{ whiteSpace: "pre-wrap" }}>{item.notes}</Text>
          </DataList.Value>
        </DataList.Item>
      ) : null}
    </DataList.Root>
  );
}
