export { Form, type FormMethods, type FormSchema } from "./Form";
export { FormTextField } from "./FormTextField";
export { FormSubmit } from "./FormSubmit";
export { FormSelectField } from "./FormSelectField";
export { FormTextAreaField } from "./FormTextAreaField";
export { COST_TYPE_OPTIONS, MicCostFields, MicDayField } from "./MicFormFields";
