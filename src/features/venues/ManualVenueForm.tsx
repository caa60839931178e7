import { Card, Checkbox, Flex, Heading, Text } from "@radix-ui/themes";
import { useId } from "react";
import { Controller } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { FormActions } from "@/components/FormActions";
import { Form, FormSubmit, FormTextField } from "@/components/form";
import type { VenueInput } from "@convex/model/events";
import { micFieldsSchema } from "@/lib/micSchema";
import { viewerTimeZone } from "@/lib/timeZone";
import { requestLocation, saveLocation } from "./userLocation";
import { manualVenue } from "./venueResults";

export const manualVenueSchema = micFieldsSchema.pick({ address: true, city: true }).extend({
  venueName: micFieldsSchema.shape.venueName.min(1, "Please enter the venue name"),
  atVenue: z.boolean(),
});

/** 'Enter the venue yourself': name, address and city; coordinates only when the comedian is there now. */
export function ManualVenueForm({
  onSubmit,
  onCancel,
}: {
  onSubmit: (venue: VenueInput) => void;
  onCancel: () => void;
}) {
  const checkboxId = useId();
  return (
    <Card size="3">
      <Flex direction="column" gap="3">
        <Heading as="h2" size="4">
          Enter the venue yourself
        </Heading>
        <Form
          schema={manualVenueSchema}
          aria-label="Enter the venue yourself"
          defaultValues={{ venueName: "", address: "", city: "", atVenue: false }}
          onSubmit={async (values) => {
            let here: { lat: number; lng: number } | null = null;
            if (values.atVenue) {
              try {
                here = await requestLocation({ enableHighAccuracy: true, timeout: 10_000, maximumAge: 60_000 });
                saveLocation(here, Date.now());
              } catch {
                toast("Location unavailable", { description: "The venue is saved without a map position." });
              }
            }
            onSubmit(manualVenue(values, here, viewerTimeZone()));
          }}
        >
          {({ control }) => (
            <>
              <FormTextField name="venueName" label="Venue name" required autoComplete="off" />
              <FormTextField name="address" label="Address" autoComplete="street-address" />
              <FormTextField name="city" label="City" autoComplete="address-level2" />
              <Controller
                control={control}
                name="atVenue"
                render={({ field }) => (
                  <Text as="label" size="3" htmlFor={checkboxId}>
                    <Flex gap="2" align="center">
                      <Checkbox
                        id={checkboxId}
                        size="3"
                        checked={field.value === true}
                        onCheckedChange={(c) => field.onChange(c === true)}
                      />
                      I'm at this venue now
                    </Flex>
                  </Text>
                )}
              />
              <FormActions cancel={onCancel} size="3">
                <FormSubmit>Use this venue</FormSubmit>
              </FormActions>
            </>
          )}
        </Form>
      </Flex>
    </Card>
  );
}
