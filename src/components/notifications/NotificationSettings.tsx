import { Box, Card, Flex, Heading, Select, Switch, Text } from "@radix-ui/themes";
import { useMutation, useQuery } from "convex/react";
import { useId } from "react";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { NotificationTopic } from "@convex/lib/notificationRules";
import { Form, FormSubmit, FormTextField } from "@/components/form";
import { LoadingState } from "@/components/LoadingState";
import { errorCode, errorMessage } from "@/lib/convexErrors";
import { DeviceSettings } from "./DeviceSettings";
import { notificationSchema, type NotificationValues } from "./notificationSchema";

const LEAD_OPTIONS = [
  { value: "120", label: "2 hours before" },
  { value: "60", label: "1 hour before" },
  { value: "30", label: "30 minutes before" },
  { value: "15", label: "15 minutes before" },
];

function SwitchField({ name, label, hint }: { name: NotificationTopic | "quiet"; label: string; hint?: string }) {
  const { control } = useFormContext<NotificationValues>();
  const hintId = useId();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Text as="label" size="2">
          <Flex gap="3" align="start" style={{ minHeight: 32 }}>
            <Switch
              size="2"
              checked={field.value}
              onCheckedChange={field.onChange}
              aria-describedby={hint ? hintId : undefined}
              style={{ marginTop: 2 }}
            />
            <Flex direction="column">
              <Text weight="medium">{label}</Text>
              {hint ? (
                <Text id={hintId} size="1" color="gray">
                  {hint}
                </Text>
              ) : null}
            </Flex>
          </Flex>
        </Text>
      )}
    />
  );
}

function LeadSelect() {
  const { control } = useFormContext<NotificationValues>();
  const listOpens = useWatch<NotificationValues, "listOpens">({ name: "listOpens" });
  const id = useId();
  return (
    <Flex direction="column" gap="1" pl="7">
      <Text as="label" htmlFor={id} size="2">
        In-person lists: tell me
      </Text>
      <Controller
        control={control}
        name="leadMinutes"
        render={({ field }) => (
          <Select.Root value={field.value} onValueChange={field.onChange} disabled={!listOpens}>
            <Select.Trigger id={id} aria-label="In-person lists: tell me" style={{ maxWidth: 240 }} />
            <Select.Content position="popper">
              {LEAD_OPTIONS.map((o) => (
                <Select.Item key={o.value} value={o.value}>
                  {o.label}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
        )}
      />
    </Flex>
  );
}

function QuietHours() {
  const quiet = useWatch<NotificationValues, "quiet">({ name: "quiet" });
  return (
    <Flex direction="column" gap="2">
      <SwitchField
        name="quiet"
        label="Quiet hours"
        hint="No pushes to your devices in these hours, on your own clock; the inbox still gets everything."
      />
      {quiet ? (
        <Flex gap="3" pl="7" wrap="wrap">
          <Box style={{ width: 140 }}>
            <FormTextField name="quietStart" label="From" type="time" size="2" />
          </Box>
          <Box style={{ width: 140 }}>
            <FormTextField name="quietEnd" label="Until" type="time" size="2" />
          </Box>
        </Flex>
      ) : null}
    </Flex>
  );
}

/** The profile page's notification choices: per topic, lead time, quiet hours, and this device. */
export function NotificationSettings() {
  const prefs = useQuery(api.notifications.preferences);
  const isAdmin = useQuery(api.profiles.isAdmin);
  const save = useMutation(api.notifications.savePreferences);
  const onSubmit = async (values: NotificationValues) => {
    if (prefs === undefined) return;
    try {
      await save({
        listOpens: values.listOpens,
        nights: values.nights,
        lottery: values.lottery,
        onDeck: values.onDeck,
        claims: values.claims,
        sets: values.sets,
        leadMinutes: Number(values.leadMinutes),
        quietStart: values.quiet ? values.quietStart : null,
        quietEnd: values.quiet ? values.quietEnd : null,
        timeZone: prefs.timeZone,
      });
      toast.success("Notification settings saved");
    } catch (err) {
      console.error(err);
      const detail = errorCode(err) === "INVALID_INPUT" ? errorMessage(err, "") : undefined;
      toast.error("Failed to save notification settings", detail ? { description: detail } : undefined);
    }
  };
  return (
    <Card size="3">
      <Flex direction="column" gap="4">
        <Heading as="h2" size="5" id="notification-settings">
          Notifications
        </Heading>
        <DeviceSettings />
        {prefs === undefined ? (
          <LoadingState label="Loading your notification settings…" />
        ) : (
          <Form
            schema={notificationSchema}
            aria-label="Notification settings"
            defaultValues={{
              listOpens: prefs.listOpens,
              nights: prefs.nights,
              lottery: prefs.lottery,
              onDeck: prefs.onDeck,
              claims: prefs.claims,
              sets: prefs.sets,
              leadMinutes: String(prefs.leadMinutes),
              quiet: prefs.quietStart !== null,
              quietStart: prefs.quietStart ?? "22:00",
              quietEnd: prefs.quietEnd ?? "08:00",
            }}
            onSubmit={onSubmit}
          >
            <Text size="2" color="gray">
              Tell me when…
            </Text>
            <SwitchField
              name="listOpens"
              label="A list opens"
              hint="For mics you favourite or scheduled: online lists the minute they open."
            />
            <LeadSelect />
            <SwitchField name="nights" label="A night I scheduled is cancelled or confirmed" />
            <SwitchField name="lottery" label="The lottery is drawn" />
            <SwitchField name="onDeck" label="I'm on deck, or up next but one" />
            <SwitchField
              name="claims"
              label={
                isAdmin ? "Claims: mine decided, and new claims and reports to review" : "My mic claims are decided"
              }
            />
            <SwitchField name="sets" label="How did it go? after a set on a live list" />
            <QuietHours />
            <Flex>
              <FormSubmit size="2">Save notification settings</FormSubmit>
            </Flex>
          </Form>
        )}
      </Flex>
    </Card>
  );
}
