import { zodResolver } from "@hookform/resolvers/zod";
import { Flex } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { FormProvider, useForm, type DefaultValues, type FieldValues, type UseFormReturn } from "react-hook-form";
import type { z } from "zod";

/** A zod schema whose input and output are both form values. */
export type FormSchema = z.ZodType<FieldValues, FieldValues>;

export type FormMethods<S extends FormSchema> = UseFormReturn<z.input<S>, unknown, z.output<S>>;

type FormProps<S extends FormSchema> = {
  /** Validation; mirrors the server validator of the mutation the form calls. */
  schema: S;
  defaultValues: DefaultValues<z.input<S>>;
  /** Receives the parsed values. A thrown error is left to the caller (show a toast there). */
  onSubmit: (values: z.output<S>, methods: FormMethods<S>) => void | Promise<void>;
  children: ReactNode | ((methods: FormMethods<S>) => ReactNode);
  /** Accessible name of the form (forms are landmarks only when named). */
  "aria-label"?: string;
  id?: string;
  gap?: "2" | "3" | "4";
};

/** The one wrapper around react-hook-form + zod that every form uses: fields
 * inside it read the form through context (see FormTextField, FormSubmit). */
export function Form<S extends FormSchema>({
  schema,
  defaultValues,
  onSubmit,
  children,
  id,
  gap = "3",
  ...rest
}: FormProps<S>) {
  const methods = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(schema as never) as never,
    defaultValues,
    mode: "onSubmit",
    reValidateMode: "onChange",
  });
  return (
    <FormProvider {...methods}>
      <form
        id={id}
        aria-label={rest["aria-label"]}
        noValidate
        onSubmit={(event) => void methods.handleSubmit((values) => onSubmit(values, methods))(event)}
      >
        <Flex direction="column" gap={gap}>
          {typeof children === "function" ? children(methods) : children}
        </Flex>
      </form>
    </FormProvider>
  );
}
