export { Form, type FormMethods, type FormSchema } from "./Form";
export { FormTextField } from "./FormTextField";
export { FormSubmit } from "./FormSubmit";
export { FormSelectField } from "./FormSelectField";
